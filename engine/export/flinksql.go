package export

import (
	"fmt"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// SQLEventsPath is where the Flink SQL program reads the events: the
// export directory as the compose cluster mounts it (SQL has no way to say
// "beside this file").
const SQLEventsPath = "file:///opt/streamlab/" + EventsFile

// flinkSQL renders the Flink SQL script of p, for Flink's SQL client.
func flinkSQL(p *Plan) string {
	var b code
	name := ProgramName(p, FlinkSQL)
	header(&b, p, FlinkSQL, "-- ", []string{
		"Run it on the compose cluster (" + ComposeFile + " beside it):",
		"  docker compose up -d --build",
		"  docker compose exec jobmanager ./bin/sql-client.sh -f /opt/streamlab/" + name,
		"Run it elsewhere: change the source's 'path' below to where " + EventsFile + " is, then",
		"  ./bin/sql-client.sh -f " + name + "   (in a Flink " + FlinkVersion + " distribution)",
		"Output: " + sinkText(p, FlinkSQL),
	})
	b.l(0, "")
	b.l(0, "SET 'execution.runtime-mode' = 'streaming';")
	b.l(0, "-- Window bounds are written as Unix milliseconds of UTC.")
	b.l(0, "SET 'table.local-time-zone' = 'UTC';")
	par := 1
	for _, o := range p.Spec.Operators {
		par = max(par, o.Parallelism)
	}
	b.l(0, "SET 'parallelism.default' = '%d';", par)
	for _, kv := range FlinkConfig(p) {
		b.l(0, "SET %s = %s;", sqlString(kv[0]), sqlString(kv[1]))
	}
	b.l(0, "")
	b.l(0, "-- The lab's source: the events file, event time from `time`.")
	b.l(0, "CREATE TEMPORARY TABLE `source` (")
	b.l(1, "`id` DECIMAL(20, 0), -- an unsigned 64-bit number, beyond BIGINT")
	b.l(1, "`time` BIGINT,")
	b.l(1, "`action` STRING,")
	b.l(1, "`key` STRING,")
	b.l(1, "`offset` BIGINT,")
	b.l(1, "`device` INT,")
	if d := p.Spec.Source.Watermark; d != jobspec.NoWatermark {
		b.l(1, "`ts` AS TO_TIMESTAMP_LTZ(`time`, 3),")
		b.l(1, "WATERMARK FOR `ts` AS `ts` - %s", sqlInterval(millis(d)))
	} else {
		b.l(1, "`ts` AS TO_TIMESTAMP_LTZ(`time`, 3)")
	}
	b.l(0, ") WITH (")
	b.l(1, "'connector' = 'filesystem',")
	b.l(1, "'path' = %s,", sqlString(SQLEventsPath))
	b.l(1, "'format' = 'json'")
	b.l(0, ");")
	prev := "`source`"
	cols := "`id`, `time`, `action`, `key`, `offset`, `device`, `ts`"
	var result string
	for _, o := range dedupFirst(p) {
		view := "`" + o.Name + "`"
		b.l(0, "")
		switch o.Kind {
		case jobspec.KindParse:
			b.l(0, "-- %s: drops events without an action and keys the rest by action.", o.Name)
			b.l(0, "CREATE TEMPORARY VIEW %s AS", view)
			b.l(1, "SELECT `id`, `time`, `action`, `action` AS `key`, `offset`, `device`, `ts` FROM %s WHERE `action` <> '';", prev)
		case jobspec.KindMap:
			b.l(0, "-- %s: lower-cases the action.", o.Name)
			b.l(0, "CREATE TEMPORARY VIEW %s AS", view)
			b.l(1, "SELECT `id`, `time`, LOWER(`action`) AS `action`, `key`, `offset`, `device`, `ts` FROM %s;", prev)
		case jobspec.KindFilter:
			q := make([]string, len(o.Drop))
			for i, d := range o.Drop {
				q[i] = sqlString(d)
			}
			b.l(0, "-- %s: drops the actions %s.", o.Name, strings.Join(o.Drop, ", "))
			b.l(0, "CREATE TEMPORARY VIEW %s AS", view)
			b.l(1, "SELECT %s FROM %s WHERE `action` NOT IN (%s);", cols, prev, strings.Join(q, ", "))
		case jobspec.KindDedup:
			b.l(0, "-- %s: the dedup stage; the first of each record id (by event time) passes.", o.Name)
			b.l(0, "CREATE TEMPORARY VIEW %s AS", view)
			b.l(1, "SELECT %s FROM (", cols)
			b.l(2, "SELECT *, ROW_NUMBER() OVER (PARTITION BY `id` ORDER BY `ts` ASC) AS `rn` FROM %s", prev)
			b.l(1, ") WHERE `rn` = 1;")
		case jobspec.KindWindowCount:
			key := "`key`"
			if o.Key == jobspec.KeyDevice {
				key = "CONCAT('device-', CAST(`device` AS STRING))"
			}
			tvf := fmt.Sprintf("TUMBLE(TABLE %s, DESCRIPTOR(`ts`), %s)", prev, sqlInterval(millis(o.Window)))
			if o.Slide != o.Window {
				tvf = fmt.Sprintf("HOP(TABLE %s, DESCRIPTOR(`ts`), %s, %s)", prev, sqlInterval(millis(o.Slide)), sqlInterval(millis(o.Window)))
			}
			b.l(0, "-- %s: counts per %s in event-time windows; a window is written once the watermark passes", o.Name, keyName(o))
			b.l(0, "-- its end, and later records for it are dropped, as in the lab.")
			b.l(0, "CREATE TEMPORARY VIEW %s AS", view)
			b.l(1, "SELECT")
			b.l(2, "TIMESTAMPDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', `window_start`) * CAST(1000 AS BIGINT) AS `window_start`,")
			b.l(2, "TIMESTAMPDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', `window_end`) * CAST(1000 AS BIGINT) AS `window_end`,")
			b.l(2, "%s AS `key`,", key)
			b.l(2, "COUNT(*) AS `value`")
			b.l(1, "FROM TABLE(%s)", tvf)
			b.l(1, "GROUP BY `window_start`, `window_end`, %s;", key)
			if millis(o.Window)%1000 != 0 || millis(o.Slide)%1000 != 0 {
				b.l(0, "-- TIMESTAMPDIFF counts whole seconds: window bounds inside a second are rounded down.")
			}
			result = "`window_start`, `window_end`, `key`, `value`"
			cols = result
		case jobspec.KindBreachCheck:
			b.l(0, "-- %s: the lab's breach check is not exported; its events pass unchanged.", o.Name)
			continue
		}
		prev = view
	}
	b.l(0, "")
	outCols := "`id` DECIMAL(20, 0), `time` BIGINT, `action` STRING, `key` STRING, `offset` BIGINT"
	sel := "`id`, `time`, `action`, `key`, `offset`"
	table := "events"
	pk := "`id`"
	if aggregates(p.Spec) {
		outCols = "`window_start` BIGINT, `window_end` BIGINT, `key` STRING, `value` BIGINT"
		sel = result
		table = "results"
		pk = "`window_start`, `key`"
	}
	if p.Config.Sink == engine.SinkTable {
		b.l(0, "-- The table sink: the JDBC connector in upsert mode (the primary key), into table %s.", table)
		b.l(0, "-- Flink's JDBC connector has no SQLite dialect, so this uses PostgreSQL; it needs in lib/")
		b.l(0, "-- flink-connector-jdbc-core and flink-connector-jdbc-postgres (4.0.0-2.0) and the PostgreSQL")
		b.l(0, "-- driver, and a database with the table:")
		b.l(0, "--   CREATE TABLE %s (%s, PRIMARY KEY (%s));", table, strings.ReplaceAll(strings.ReplaceAll(outCols, "`", ""), "STRING", "TEXT"), strings.ReplaceAll(pk, "`", ""))
		b.l(0, "CREATE TEMPORARY TABLE `sink` (")
		b.l(1, "%s,", outCols)
		b.l(1, "PRIMARY KEY (%s) NOT ENFORCED", pk)
		b.l(0, ") WITH (")
		b.l(1, "'connector' = 'jdbc',")
		b.l(1, "'url' = 'jdbc:postgresql://localhost:5432/streamlab',")
		b.l(1, "'table-name' = %s,", sqlString(table))
		b.l(1, "'username' = 'streamlab',")
		b.l(1, "'password' = 'streamlab'")
		b.l(0, ");")
	} else {
		b.l(0, "-- The log sink: every row on standard output (the task manager's .out file on a cluster).")
		b.l(0, "CREATE TEMPORARY TABLE `sink` (%s) WITH ('connector' = 'print');", outCols)
	}
	b.l(0, "")
	b.l(0, "INSERT INTO `sink` SELECT %s FROM %s;", sel, prev)
	return b.String()
}

// sqlInterval writes ms as a Flink SQL interval literal. Flink refuses
// more than three digits before the point ('120' SECOND needs SECOND(3);
// SECOND(4) is not supported), so a duration takes the largest unit that
// divides it: seconds (with milliseconds) below 1000 s, else minutes,
// hours or days.
func sqlInterval(ms int64) string {
	switch {
	case ms < 1_000_000:
		s := strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%d.%03d", ms/1000, ms%1000), "0"), ".")
		return "INTERVAL '" + s + "' SECOND(3)"
	case ms%60_000 == 0 && ms/60_000 < 1000:
		return fmt.Sprintf("INTERVAL '%d' MINUTE(3)", ms/60_000)
	case ms%3_600_000 == 0 && ms/3_600_000 < 1000:
		return fmt.Sprintf("INTERVAL '%d' HOUR(3)", ms/3_600_000)
	}
	d := ms / 86_400_000
	ms -= d * 86_400_000
	return fmt.Sprintf("INTERVAL '%d %02d:%02d:%02d.%03d' DAY(3) TO SECOND(3)", d, ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}
