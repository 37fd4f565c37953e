-- clicks_flink.sql: job "clicks" of the lab script exactly-once-table.lab, for Flink 2.3.0,
-- written by `streamlab export --to flink-sql`. It reads events.jsonl beside it: the 700 events the
-- script's runs admitted, as `streamlab run --dump-source` writes them.
--
-- Run it on the compose cluster (docker-compose.yaml beside it):
--   docker compose up -d --build
--   docker compose exec jobmanager ./bin/sql-client.sh -f /opt/streamlab/clicks_flink.sql
-- Run it elsewhere: change the source's 'path' below to where events.jsonl is, then
--   ./bin/sql-client.sh -f clicks_flink.sql   (in a Flink 2.3.0 distribution)
-- Output: table results through the JDBC connector (see the sink below).
--
-- The lab's settings:
--   semantics exactly-once (in effect: exactly-once), ha passive-standby
--   mode update, sink table
--   restart fixed-delay attempts=3 delay=1s
--   checkpoint.interval 200 records, deployment managed, jobmanager.ha none
--   source.rate 100/s, source.trigger 1s, source.watermark 5s
--   operator parse: parse, parallelism 1
--   operator count: window-count, parallelism 2, window 10s slide 10s, per action
--
-- What does not carry over as the lab does it:
--   - sink.commit transactional: the JDBC connector's upsert sink (a primary key) is idempotent, not a
--     two-phase commit; replayed rows overwrite themselves, so the table ends the same.
--   - checkpoint.interval 200 records: Flink checkpoints by time, so the interval is the time the
--     source takes to emit 200 records at source.rate 100/s: 2000 ms (the source is paced to that rate).
--   - deployment managed: a resource manager (Kubernetes, YARN) would replace a lost task manager
--     after about 5s; the compose cluster is standalone, and here a kill is a task failure, so no
--     task manager is lost.
--   - line 7, kill count[1] at 100: not replayed (see below).
--   - line 9, kill sink at commit: not carried over: the moment between a completed checkpoint and the sink's commit cannot be picked from user code.
--   - line 11, expect sink.lost == 0: not carried over: an expectation on the lab's report; compare this program's output with `streamlab run` of the same script.
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
--   - Flink SQL cannot run user code that fails at a record without a UDF jar: the kills above are
--     not in this program. Use the PyFlink export to replay them.

SET 'execution.runtime-mode' = 'streaming';
-- Window bounds are written as Unix milliseconds of UTC.
SET 'table.local-time-zone' = 'UTC';
SET 'parallelism.default' = '2';
SET 'restart-strategy.type' = 'fixed-delay';
SET 'restart-strategy.fixed-delay.attempts' = '3';
SET 'restart-strategy.fixed-delay.delay' = '1000 ms';
SET 'execution.checkpointing.interval' = '2000 ms';
SET 'execution.checkpointing.mode' = 'EXACTLY_ONCE';
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

-- The table sink: the JDBC connector in upsert mode (the primary key), into table results.
-- Flink's JDBC connector has no SQLite dialect, so this uses PostgreSQL; it needs in lib/
-- flink-connector-jdbc-core and flink-connector-jdbc-postgres (4.0.0-2.0) and the PostgreSQL
-- driver, and a database with the table:
--   CREATE TABLE results (window_start BIGINT, window_end BIGINT, key TEXT, value BIGINT, PRIMARY KEY (window_start, key));
CREATE TEMPORARY TABLE `sink` (
    `window_start` BIGINT, `window_end` BIGINT, `key` STRING, `value` BIGINT,
    PRIMARY KEY (`window_start`, `key`) NOT ENFORCED
) WITH (
    'connector' = 'jdbc',
    'url' = 'jdbc:postgresql://localhost:5432/streamlab',
    'table-name' = 'results',
    'username' = 'streamlab',
    'password' = 'streamlab'
);

INSERT INTO `sink` SELECT `window_start`, `window_end`, `key`, `value` FROM `count`;
