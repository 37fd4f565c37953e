-- passthrough_flink.sql: job "passthrough" of the lab script builtin-passthrough.lab, for Flink 2.3.0,
-- written by `streamlab export --to flink-sql`. It reads events.jsonl beside it: the 300 events the
-- script's runs admitted, as `streamlab run --dump-source` writes them.
--
-- Run it on the compose cluster (docker-compose.yaml beside it):
--   docker compose up -d --build
--   docker compose exec jobmanager ./bin/sql-client.sh -f /opt/streamlab/passthrough_flink.sql
-- Run it elsewhere: change the source's 'path' below to where events.jsonl is, then
--   ./bin/sql-client.sh -f passthrough_flink.sql   (in a Flink 2.3.0 distribution)
-- Output: the print connector: one row a line on standard output.
--
-- The lab's settings:
--   semantics at-most-once (in effect: at-most-once), ha none
--   mode update, sink log
--   restart exponential-delay initial=1s max=1m0s multiplier=1.5 reset=1h0m0s jitter=0.1
--   checkpoint.interval 1000 records, deployment managed, jobmanager.ha none
--   source.rate 100/s, source.trigger 1s, source.watermark 5s
--   operator map: map, parallelism 1
--   operator filter: filter, parallelism 1, drops scroll
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
--   - source.watermark 5s: Flink's bounded out-of-orderness watermark is the largest event time minus
--     5000 ms minus 1 ms, emitted every pipeline.auto-watermark-interval (set to the lab's trigger, 1s);
--     which late records a real run drops depends on that cadence.

SET 'execution.runtime-mode' = 'streaming';
-- Window bounds are written as Unix milliseconds of UTC.
SET 'table.local-time-zone' = 'UTC';
SET 'parallelism.default' = '1';
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

-- map: lower-cases the action.
CREATE TEMPORARY VIEW `map` AS
    SELECT `id`, `time`, LOWER(`action`) AS `action`, `key`, `offset`, `device`, `ts` FROM `source`;

-- filter: drops the actions scroll.
CREATE TEMPORARY VIEW `filter` AS
    SELECT `id`, `time`, `action`, `key`, `offset`, `device`, `ts` FROM `map` WHERE `action` NOT IN ('scroll');

-- The log sink: every row on standard output (the task manager's .out file on a cluster).
CREATE TEMPORARY TABLE `sink` (`id` DECIMAL(20, 0), `time` BIGINT, `action` STRING, `key` STRING, `offset` BIGINT) WITH ('connector' = 'print');

INSERT INTO `sink` SELECT `id`, `time`, `action`, `key`, `offset` FROM `filter`;
