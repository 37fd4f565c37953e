package engine

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/bus"
)

// The lineage's memory is bounded whatever the input: past maxLineageRows
// rows the oldest written once are forgotten, a row written twice is kept,
// and a row's copies are capped at keptCopies while all are counted.
func TestLineageIsBounded(t *testing.T) {
	l := newLineage(&bus.Bus{})
	writer := func(Record, rowOrigin) string { return "map" }
	l.wrote(sinkBatch{n: 1, rows: []Record{{Offset: 0}, {Offset: 0}}}, 0, writer, nil) // a duplicate, first of all
	for i := range int64(3 * maxLineageRows) {
		l.wrote(sinkBatch{n: i + 2, rows: []Record{{Offset: i + 1}}}, i, writer, nil)
	}
	for range 3 * keptCopies {
		l.wrote(sinkBatch{n: 9, rows: []Record{{Offset: 3 * maxLineageRows}}}, 9, writer, nil)
	}
	if n := len(l.rows); n > maxLineageRows+1 {
		t.Fatalf("%d rows kept; want at most %d", n, maxLineageRows+1)
	}
	if dup := l.rows[rowKey{off: 0}]; dup == nil || dup.total != 2 {
		t.Fatalf("the duplicated row was forgotten: %+v", dup)
	}
	if l.rows[rowKey{off: 1}] != nil || l.forgot == 0 {
		t.Fatalf("the oldest row written once is still kept (%d forgotten)", l.forgot)
	}
	last := l.rows[rowKey{off: 3 * maxLineageRows}]
	if last == nil || len(last.copies) != keptCopies || last.total != 3*keptCopies+1 || last.copies[0].batch == 9 {
		t.Fatalf("the last row: %d copies kept of %d, first from batch %d", len(last.copies), last.total, last.copies[0].batch)
	}
}

// The README states the lineage's bounds; they are these constants.
func TestReadmeStatesTheLineageBounds(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.Join(strings.Fields(string(data)), " ")
	for _, want := range []string{
		fmt.Sprintf("the latest %d %03d rows", maxLineageRows/1000, maxLineageRows%1000),
		fmt.Sprintf("(up to %d %03d)", maxPinnedRows/1000, maxPinnedRows%1000),
		fmt.Sprintf("(%s in all;", map[int]string{6: "six"}[keptCopies]),
		fmt.Sprintf("and %d failures", maxEpisodes),
	} {
		if !strings.Contains(readme, want) {
			t.Errorf("the README does not say %q", want)
		}
	}
}

// What a node stamps on a record it sends to the sink travels in the
// element by value: stamping allocates nothing (a pointer to the element
// once moved every record sent to the heap, two allocations a record).
func TestStampingForTheSinkAllocatesNothing(t *testing.T) {
	g := &graph{stamp: func(*node) (int64, int64) { return 1200, 1 }}
	n := &node{restarts: 1}
	var e element
	allocs := testing.AllocsPerRun(100, func() { e = g.sent(n, Record{Offset: 7}, true) })
	if allocs != 0 || e.at != 1200 || e.id != 1 || e.rec.senderRestarts != 1 {
		t.Fatalf("%v allocations; element %+v", allocs, e)
	}
}
