-- clicks_flink.sql: job "clicks" of the lab script at-most-once.lab, for Flink 2.3.0,
-- written by `streamlab export --to flink-sql`. It reads events.jsonl beside it: the 300 events the
-- script's runs admitted, as `streamlab run --dump-source` writes them.
--
-- Run it on the compose cluster (docker-compose.yaml beside it):
--   docker compose up -d --build
--   docker compose exec jobmanager ./bin/sql-client.sh -f /opt/streamlab/clicks_flink.sql
-- Run it elsewhere: change the source's 'path' below to where events.jsonl is, then
--   ./bin/sql-client.sh -f clicks_flink.sql   (in a Flink 2.3.0 distribution)
-- Output: the print connector: one row a line on standard output.
--
-- The lab's settings:
--   semantics at-most-once (in effect: at-most-once), ha none
--   mode complete, sink log
--   restart exponential-delay initial=500ms max=30s multiplier=2 reset=1h0m0s jitter=0 attempts=5
--   checkpoint.interval 1000 records, deployment managed, jobmanager.ha none
--   source.rate 100/s, source.trigger 1s, source.watermark none
--   operator parse: parse, parallelism 1
--   operator count: window-count, parallelism 2, window 10s slide 10s, per action
--
-- What does not carry over as the lab does it:
--   - at-most-once (gap recovery) has no Flink equivalent: without checkpoints a restarted Flink job
--     reads its source from the start again, so records are repeated rather than lost.
--     Checkpointing is off here, as in the lab.
--   - restart exponential-delay is set explicitly: with checkpointing off and nothing set, Flink
--     does not restart at all (NoRestartBackoffTimeStrategy).
--   - deployment managed: a resource manager (Kubernetes, YARN) would replace a lost task manager
--     after about 5s; the compose cluster is standalone, and here a kill is a task failure, so no
--     task manager is lost.
--   - line 7, kill count[0]: not replayed (see below).
--   - line 8, step 3: not carried over: stepping the lab's scheduler has no counterpart; the records it admitted are in the events file.
--   - mode complete: a Flink event-time window fires once and then drops its state; the lab's complete
--     mode rewrites every window every trigger and drops no late record.
--   - source.watermark none: an event-time window never fires without a watermark until the bounded
--     source ends, when Flink sends the final watermark and every window fires once.
--   - a SQL window aggregation is not split into parallel count nodes by name; parallelism.default is
--     the largest parallelism of the job.
--   - Flink assigns keys to subtasks by key group (murmur hash), not by the lab's hash: count[i] here
--     counts other keys than the lab's count[i].
--   - Flink SQL cannot run user code that fails at a record without a UDF jar: the kills above are
--     not in this program. Use the PyFlink export to replay them.

SET 'execution.runtime-mode' = 'streaming';
-- Window bounds are written as Unix milliseconds of UTC.
SET 'table.local-time-zone' = 'UTC';
SET 'parallelism.default' = '2';
SET 'restart-strategy.type' = 'exponential-delay';
SET 'restart-strategy.exponential-delay.initial-backoff' = '500 ms';
SET 'restart-strategy.exponential-delay.max-backoff' = '30000 ms';
SET 'restart-strategy.exponential-delay.backoff-multiplier' = '2';
SET 'restart-strategy.exponential-delay.reset-backoff-threshold' = '3600000 ms';
SET 'restart-strategy.exponential-delay.jitter-factor' = '0';
SET 'restart-strategy.exponential-delay.attempts-before-reset-backoff' = '5';
SET 'pipeline.auto-watermark-interval' = '1000 ms';

-- The lab's source: the events file, event time from `time`.
CREATE TEMPORARY TABLE `source` (
    `id` DECIMAL(20, 0), -- an unsigned 64-bit number, beyond BIGINT
    `time` BIGINT,
    `action` STRING,
    `key` STRING,
    `offset` BIGINT,
    `device` INT,
    `ts` AS TO_TIMESTAMP_LTZ(`time`, 3)
) WITH (
    'connector' = 'filesystem',
    'path' = 'file:///opt/streamlab/events.jsonl',
    'format' = 'json'
);

-- parse: drops events without an action and keys the rest by action.
CREATE TEMPORARY VIEW `parse` AS
    SELECT `id`, `time`, `action`, `action` AS `key`, `offset`, `device`, `ts` FROM `source` WHERE `action` <> '';

-- count: counts per action in event-time windows; a window is written once the watermark passes
-- its end, and later records for it are dropped, as in the lab.
CREATE TEMPORARY VIEW `count` AS
    SELECT
        TIMESTAMPDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', `window_start`) * CAST(1000 AS BIGINT) AS `window_start`,
        TIMESTAMPDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', `window_end`) * CAST(1000 AS BIGINT) AS `window_end`,
        `key` AS `key`,
        COUNT(*) AS `value`
    FROM TABLE(TUMBLE(TABLE `parse`, DESCRIPTOR(`ts`), INTERVAL '10' SECOND(3)))
    GROUP BY `window_start`, `window_end`, `key`;

-- The log sink: every row on standard output (the task manager's .out file on a cluster).
CREATE TEMPORARY TABLE `sink` (`window_start` BIGINT, `window_end` BIGINT, `key` STRING, `value` BIGINT) WITH ('connector' = 'print');

INSERT INTO `sink` SELECT `window_start`, `window_end`, `key`, `value` FROM `count`;
