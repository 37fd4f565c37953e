-- sessions_flink.sql: job "sessions" of the lab script sliding-device-bloom.lab, for Flink 2.3.0,
-- written by `streamlab export --to flink-sql`. It reads events.jsonl beside it: the 500 events the
-- script's runs admitted, as `streamlab run --dump-source` writes them.
--
-- Run it on the compose cluster (docker-compose.yaml beside it):
--   docker compose up -d --build
--   docker compose exec jobmanager ./bin/sql-client.sh -f /opt/streamlab/sessions_flink.sql
-- Run it elsewhere: change the source's 'path' below to where events.jsonl is, then
--   ./bin/sql-client.sh -f sessions_flink.sql   (in a Flink 2.3.0 distribution)
-- Output: table results through the JDBC connector (see the sink below).
--
-- The lab's settings:
--   semantics exactly-once (in effect: exactly-once), ha passive-standby
--   mode update, sink table
--   restart failure-rate max=3 interval=5m0s delay=10s
--   checkpoint.interval 1000 records, deployment managed, jobmanager.ha standby
--   source.rate 50/s, source.trigger 2s, source.watermark 3s
--   filter bloom
--   operator parse: parse, parallelism 1
--   operator views: filter, parallelism 1, drops view,scroll
--   operator count: window-count, parallelism 2, window 20s slide 5s, per device
--
-- What does not carry over as the lab does it:
--   - sink.commit transactional: the JDBC connector's upsert sink (a primary key) is idempotent, not a
--     two-phase commit; replayed rows overwrite themselves, so the table ends the same.
--   - checkpoint.interval 1000 records: Flink checkpoints by time, so the interval is the time the
--     source takes to emit 1000 records at source.rate 50/s: 20000 ms (the source is paced to that rate).
--   - deployment managed: a resource manager (Kubernetes, YARN) would replace a lost task manager
--     after about 5s; the compose cluster is standalone, and here a kill is a task failure, so no
--     task manager is lost.
--   - jobmanager.ha standby (lease 10s): needs high-availability.type zookeeper or kubernetes and a
--     standby job manager; the compose cluster has one job manager and no HA services.
--   - line 12, kill jobmanager: not carried over: a job manager failure is not a record-level event: on the compose cluster run `docker compose kill jobmanager` (without high availability the job fails with it, as in the lab's jobmanager.ha none).
--   - mode update: a Flink event-time window fires once, when the watermark passes its end (Spark's
--     append mode); the lab's update mode also writes each trigger's partial counts. The final count
--     of each window is the same; the log shows fewer rows.
--   - source.watermark 3s: Flink's bounded out-of-orderness watermark is the largest event time minus
--     3000 ms minus 1 ms, emitted every pipeline.auto-watermark-interval (set to the lab's trigger, 2s);
--     which late records a real run drops depends on that cadence.
--   - a SQL window aggregation is not split into parallel count nodes by name; parallelism.default is
--     the largest parallelism of the job.
--   - Flink assigns keys to subtasks by key group (murmur hash), not by the lab's hash: count[i] here
--     counts other keys than the lab's count[i].
--   - filter bloom: neither Flink nor Spark has a built-in Bloom or rotating membership filter;
--     the dedup stage here is exact (a ROW_NUMBER() dedup per id): it keeps every id and has no false positives.
--   - the dedup stage runs on the input ids before the window: Spark refuses a stateful operator
--     after an aggregation outside append mode, and Flink's window results carry no record ids.
--   - executor concurrent: the lab's own scheduling; the real engine schedules its tasks itself.

SET 'execution.runtime-mode' = 'streaming';
-- Window bounds are written as Unix milliseconds of UTC.
SET 'table.local-time-zone' = 'UTC';
SET 'parallelism.default' = '2';
SET 'restart-strategy.type' = 'failure-rate';
SET 'restart-strategy.failure-rate.max-failures-per-interval' = '3';
SET 'restart-strategy.failure-rate.failure-rate-interval' = '300000 ms';
SET 'restart-strategy.failure-rate.delay' = '10000 ms';
SET 'execution.checkpointing.interval' = '20000 ms';
SET 'execution.checkpointing.mode' = 'EXACTLY_ONCE';
SET 'pipeline.auto-watermark-interval' = '2000 ms';

-- The lab's source: the events file, event time from `time`.
CREATE TEMPORARY TABLE `source` (
    `id` DECIMAL(20, 0), -- an unsigned 64-bit number, beyond BIGINT
    `time` BIGINT,
    `action` STRING,
    `key` STRING,
    `offset` BIGINT,
    `device` INT,
    `ts` AS TO_TIMESTAMP_LTZ(`time`, 3),
    WATERMARK FOR `ts` AS `ts` - INTERVAL '3' SECOND(3)
) WITH (
    'connector' = 'filesystem',
    'path' = 'file:///opt/streamlab/events.jsonl',
    'format' = 'json'
);

-- parse: drops events without an action and keys the rest by action.
CREATE TEMPORARY VIEW `parse` AS
    SELECT `id`, `time`, `action`, `action` AS `key`, `offset`, `device`, `ts` FROM `source` WHERE `action` <> '';

-- views: drops the actions view, scroll.
CREATE TEMPORARY VIEW `views` AS
    SELECT `id`, `time`, `action`, `key`, `offset`, `device`, `ts` FROM `parse` WHERE `action` NOT IN ('view', 'scroll');

-- dedup: the dedup stage; the first of each record id (by event time) passes.
CREATE TEMPORARY VIEW `dedup` AS
    SELECT `id`, `time`, `action`, `key`, `offset`, `device`, `ts` FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY `id` ORDER BY `ts` ASC) AS `rn` FROM `views`
    ) WHERE `rn` = 1;

-- count: counts per device in event-time windows; a window is written once the watermark passes
-- its end, and later records for it are dropped, as in the lab.
CREATE TEMPORARY VIEW `count` AS
    SELECT
        TIMESTAMPDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', `window_start`) * CAST(1000 AS BIGINT) AS `window_start`,
        TIMESTAMPDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', `window_end`) * CAST(1000 AS BIGINT) AS `window_end`,
        CONCAT('device-', CAST(`device` AS STRING)) AS `key`,
        COUNT(*) AS `value`
    FROM TABLE(HOP(TABLE `dedup`, DESCRIPTOR(`ts`), INTERVAL '5' SECOND(3), INTERVAL '20' SECOND(3)))
    GROUP BY `window_start`, `window_end`, CONCAT('device-', CAST(`device` AS STRING));

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
