-- passthrough_flink.sql: job "passthrough" of the lab script at-least-once-log.lab, for Flink 2.3.0,
-- written by `streamlab export --to flink-sql`. It reads events.jsonl beside it: the 400 events the
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
--   semantics at-least-once (in effect: at-least-once), ha upstream-backup
--   mode update, sink log
--   restart fixed-delay attempts=2 delay=1s
--   checkpoint.interval 1000 records, deployment standalone, jobmanager.ha none
--   source.rate 100/s, source.trigger 1s, source.watermark 5s
--   operator map: map, parallelism 1
--   operator filter: filter, parallelism 1, drops scroll
--
-- What does not carry over as the lab does it:
--   - ha upstream-backup (the lab's at-least-once default) has no Flink equivalent: Flink keeps no
--     per-channel output queues. This program uses at-least-once checkpointing, which restores
--     operator state from the last checkpoint and replays the source from there.
--   - checkpoint.interval 1000 records: Flink checkpoints by time, so the interval is the time the
--     source takes to emit 1000 records at source.rate 100/s: 10000 ms (the source is paced to that rate).
--   - deployment standalone: a killed task manager is not replaced; on the compose cluster run
--     `docker compose kill taskmanager-2` and watch the job wait for slots until slot.request.timeout
--     (5 min). In this program a kill is a task failure: every task manager stays up.
--   - line 6, kill map at 50: not replayed (see below).
--   - line 8, kill source: not replayed (see below).
--   - line 9, restart source: not carried over: the real engine restarts failed tasks itself, by its restart strategy; on the compose cluster a lost task manager comes back with `docker compose start taskmanager`.
--   - source.watermark 5s: Flink's bounded out-of-orderness watermark is the largest event time minus
--     5000 ms minus 1 ms, emitted every pipeline.auto-watermark-interval (set to the lab's trigger, 1s);
--     which late records a real run drops depends on that cadence.
--   - Flink SQL cannot run user code that fails at a record without a UDF jar: the kills above are
--     not in this program. Use the PyFlink export to replay them.

SET 'execution.runtime-mode' = 'streaming';
-- Window bounds are written as Unix milliseconds of UTC.
SET 'table.local-time-zone' = 'UTC';
SET 'parallelism.default' = '1';
SET 'restart-strategy.type' = 'fixed-delay';
SET 'restart-strategy.fixed-delay.attempts' = '2';
SET 'restart-strategy.fixed-delay.delay' = '1000 ms';
SET 'execution.checkpointing.interval' = '10000 ms';
SET 'execution.checkpointing.mode' = 'AT_LEAST_ONCE';
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
