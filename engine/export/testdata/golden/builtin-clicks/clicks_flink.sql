-- clicks_flink.sql: job "clicks" of the lab script builtin-clicks.lab, for Flink 2.3.0,
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
--   mode update, sink log
--   restart exponential-delay initial=1s max=1m0s multiplier=1.5 reset=1h0m0s jitter=0.1
--   checkpoint.interval 1000 records, deployment managed, jobmanager.ha none
--   source.rate 100/s, source.trigger 1s, source.watermark 5s
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
--   - mode update: a Flink event-time window fires once, when the watermark passes its end (Spark's
--     append mode); the lab's update mode also writes each trigger's partial counts. The final count
--     of each window is the same; the log shows fewer rows.
--   - source.watermark 5s: Flink's bounded out-of-orderness watermark is the largest event time minus
--     5000 ms minus 1 ms, emitted every pipeline.auto-watermark-interval (set to the lab's trigger, 1s);
--     which late records a real run drops depends on that cadence.
--   - a SQL window aggregation is not split into parallel count nodes by name; parallelism.default is
--     the largest parallelism of the job.
--   - Flink assigns keys to subtasks by key group (murmur hash), not by the lab's hash: count[i] here
--     counts other keys than the lab's count[i].

SET 'execution.runtime-mode' = 'streaming';
-- Window bounds are written as Unix milliseconds of UTC.
SET 'table.local-time-zone' = 'UTC';
SET 'parallelism.default' = '2';
SET 'restart-strategy.type' = 'exponential-delay';
SET 'restart-strategy.exponential-delay.initial-backoff' = '1000 ms';
SET 'restart-strategy.exponential-delay.max-backoff' = '60000 ms';
SET 'restart-strategy.exponential-delay.backoff-multiplier' = '1.5';
SET 'restart-strategy.exponential-delay.reset-backoff-threshold' = '3600000 ms';
SET 'restart-strategy.exponential-delay.jitter-factor' = '0.1';
SET 'pipeline.auto-watermark-interval' = '1000 ms';

-- The lab's source: the events file, event time from `time`.
CREATE TEMPORARY TABLE `source` (
    `id` DECIMAL(20, 0), -- an unsigned 64-bit number, beyond BIGINT
    `time` BIGINT,
    `action` STRING,
    `key` STRING,
    `offset` BIGINT,
    `device` INT,
    `ts` AS TO_TIMESTAMP_LTZ(`time`, 3),
    WATERMARK FOR `ts` AS `ts` - INTERVAL '5' SECOND(3)
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
