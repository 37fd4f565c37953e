package engine

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// JobManager is the name `kill` and `restart` use for the coordinator.
const JobManager = "jobmanager"

// Node states a snapshot shows.
const (
	NodeRunning    = "running"
	NodeKilled     = "killed"     // down, waiting for a restart
	NodeRestarting = "restarting" // a restart is scheduled
)

// ErrNoSuchNode is returned for a node name the job does not have.
var ErrNoSuchNode = errors.New("no such node")

// ErrConcurrentFailures is returned when failures the concurrent executor
// cannot place are asked of it.
var ErrConcurrentFailures = errors.New("under the concurrent executor failures need checkpoints (ha passive-standby); other schemes need the deterministic executor, which places them at exact positions")

// backupEntry is a record an upstream node keeps until downstream
// acknowledges it (upstream backup).
type backupEntry struct {
	rec   Record
	epoch int64 // the sender's epoch when it sent the record
}

// plan is a scheduled kill or restart.
type plan struct {
	node     *node // nil: the whole job (failover) or the job manager
	at       int64 // kill: records processed by the node; restart: virtual ms
	failedAt int64
	manual   bool // standalone: waits for `restart NODE`
	released bool // the manual restart was asked for
	askedAt  int64
	whole    bool // restart every node from the last checkpoint
	jm       bool // the job manager
	standby  bool // bring up a new active standby, the node itself runs
	atCommit bool // kill: when the next commit reaches the node (the sink)
}

// recovery holds what failures and recovery need: scheduled kills and
// restarts, upstream-backup queues, and the checkpoint coordinator.
type recovery struct {
	r        *Runtime
	ha       string
	backoff  *backoff
	kills    []plan
	restarts []plan
	jmDown   bool
	// jmFailovers counts job manager failures a standby took over;
	// electionMS the virtual time the job had no leader.
	jmFailovers int64
	electionMS  int64
	failures    int64
	restarted   int64
	timeMS      int64
	downtimeMS  int64
	replayed    int64
	lostFlight  int64
	backups     map[*node][][]backupEntry // per sender, per downstream node
	backupPeak  int64
	backupNow   int64 // records the output queues hold now
	acks        int64 // acknowledgement messages sent upstream
	scratch     map[*node]map[int64]bool
	trigWM      map[*node][][2]int64 // window nodes: (epoch, watermark) at each trigger
	// ackedWM is, per window node, the watermark its downstream had
	// acknowledged at the last acknowledgement round: all a replacement
	// can know of what was emitted for good.
	ackedWM   map[*node]int64
	sinkEpoch int64 // the last micro-batch the sink committed
	commits   int64
	ckpt      *coordinator
}

func newRecovery(r *Runtime, ha string) *recovery {
	rc := &recovery{r: r, ha: ha, backoff: newBackoff(r.cfg.Restart, r.cfg.Seed),
		trigWM: map[*node][][2]int64{}, ackedWM: map[*node]int64{}}
	if ha == HAUpstreamBackup {
		rc.backups = map[*node][][]backupEntry{}
		rc.scratch = map[*node]map[int64]bool{}
		for _, n := range r.g.nodes {
			if n.stage+1 < len(r.g.stages) {
				rc.backups[n] = make([][]backupEntry, len(r.g.stages[n.stage+1].nodes))
			}
		}
	}
	if ha == HAPassiveStandby {
		rc.ckpt = newCoordinator(r)
		r.cur.every = r.cfg.CheckpointInterval
	}
	if ha == HAActiveStandby {
		for _, n := range r.g.nodes {
			rc.provision(n)
		}
	}
	for _, n := range r.g.nodes {
		n.onMarker = rc.marker
	}
	return rc
}

// now is the virtual time failures and restarts are placed by: the source's
// time while it runs, the end of the admitted time while it is down.
func (rc *recovery) now() int64 {
	if rc.r.g.nodes[0].dead {
		return rc.r.cur.clock
	}
	return rc.r.cur.now()
}

func (rc *recovery) event(kind EventKind, node, text string, n int64) {
	rc.r.bus.Publish(Event{TimeMS: rc.now(), Kind: kind, Node: node, N: n, Text: text})
}

// lookup finds a node by name.
func (rc *recovery) lookup(name string) (*node, error) {
	if n := rc.r.g.node(name); n != nil {
		return n, nil
	}
	names := []string{JobManager}
	for _, n := range rc.r.g.nodes {
		names = append(names, n.name)
	}
	return nil, fmt.Errorf("%w %q; the job has %v", ErrNoSuchNode, name, names)
}

// killAt schedules a kill once the node has processed at records.
func (rc *recovery) killAt(name string, at int64) error {
	n, err := rc.lookup(name)
	if err != nil {
		return err
	}
	rc.kills = append(rc.kills, plan{node: n, at: at})
	rc.checkKills()
	return nil
}

// killAtCommit schedules a kill of the sink for the moment the job manager's
// word that a checkpoint completed reaches it, before it commits: the
// failure window of a two-phase commit.
func (rc *recovery) killAtCommit(name string) error {
	n, err := rc.lookup(name)
	if err != nil {
		return err
	}
	if n.op != operator(rc.r.sink) {
		return fmt.Errorf("only the sink commits; use kill sink at commit")
	}
	if ts, ok := rc.r.writer.(*tableSink); !ok || !ts.transactional {
		return fmt.Errorf("this sink never commits a checkpoint's transaction: only a table sink under exactly-once with ha passive-standby and sink.commit transactional does")
	}
	rc.kills = append(rc.kills, plan{node: n, atCommit: true})
	return nil
}

// commitArrived delivers checkpoint id's completion to the sink node n,
// which commits, unless a kill was waiting for this moment.
func (rc *recovery) commitArrived(n *node, id int64) {
	for i, k := range rc.kills {
		if k.atCommit && k.node == n {
			rc.kills = append(rc.kills[:i], rc.kills[i+1:]...)
			rc.event(EventCheckpoint, n.name, fmt.Sprintf("checkpoint %d completed, but %s dies before it commits transaction %d", id, n.name, id), id)
			rc.killAtTime(n, rc.reached(n))
			return
		}
	}
	rc.ckpt.commit(id)
}

// mustDie reports whether n has reached a scheduled kill; the concurrent
// executor asks it from n's own goroutine, while the plans do not change.
func (rc *recovery) mustDie(n *node) bool {
	for _, k := range rc.kills {
		if k.node == n && !k.atCommit && n.counts.In >= k.at {
			return true
		}
	}
	return false
}

// checkKills carries out the scheduled kills that are due.
func (rc *recovery) checkKills() {
	keep := rc.kills[:0]
	for _, k := range rc.kills {
		if !k.node.dead && !k.atCommit && k.node.counts.In >= k.at {
			rc.killAtTime(k.node, rc.reached(k.node))
			continue
		}
		keep = append(keep, k)
	}
	rc.kills = keep
}

// reached is the virtual time a node has got to: the arrival of the latest
// record it processed, or the latest marker it aligned. A failure placed
// by records falls at this time under either executor, however far ahead
// the source had run.
func (rc *recovery) reached(n *node) int64 {
	t := n.lastAt
	if n.lastOffset >= 0 {
		t = max(t, rc.r.src.Arrival(n.lastOffset))
	}
	return t
}

// kill makes a node fail now: its state, its input queue and what
// alignment held back are gone.
func (rc *recovery) kill(n *node) { rc.killAtTime(n, rc.now()) }

func (rc *recovery) killAtTime(n *node, now int64) {
	r := rc.r
	if r.state != StateRunning || n.dead {
		return
	}
	rc.failures++
	if rc.ha == HAActiveStandby {
		if !n.standby {
			// Replaying nothing, the scheme has nothing to fall back on.
			rc.lose(n)
			r.fail(fmt.Errorf("%s failed with no active standby left to take over: its last one took over and the next is not up yet; active standby covers one failure at a time", n.name))
			return
		}
		rc.takeOver(n, now)
		return
	}
	if rc.ckpt != nil {
		// Precise recovery restarts every task from the last completed
		// checkpoint (the pipelined region of a job whose sink gathers every
		// node is the whole job: Flink's region failover gives the same). A
		// checkpoint in progress cannot complete without the failed task.
		rc.ckpt.abortPending(n.name + " failed")
		for _, m := range r.g.nodes {
			m.dead = true
		}
		for _, m := range r.g.nodes {
			rc.lose(m)
		}
	} else {
		rc.lose(n)
	}
	rc.event(EventNodeKilled, n.name, fmt.Sprintf("%s killed after %d records: its state and its input queue are gone", n.name, n.counts.In), n.counts.In)
	delay, err := rc.backoff.onFailure(now)
	if err != nil {
		r.fail(fmt.Errorf("%s failed and %w", n.name, err))
		return
	}
	p := plan{node: n, at: now + delay, failedAt: now, whole: rc.ckpt != nil}
	if r.cfg.Deployment == DeployStandalone {
		p.manual = true
	} else {
		p.at = max(p.at, now+r.cfg.Provision.Milliseconds())
	}
	rc.restarts = append(rc.restarts, p)
	how := fmt.Sprintf("restart scheduled in %d ms by %s", p.at-now, r.cfg.Restart)
	if p.manual {
		how = fmt.Sprintf("standalone: it stays down until `restart %s` (then %s waits %d ms)", n.name, r.cfg.Restart.Kind, delay)
	}
	rc.event(EventRestartScheduled, n.name, how, p.at-now)
}

// provision brings up an active standby for n: a replica with a copy of
// its state (a state transfer), fed the same input from now on.
func (rc *recovery) provision(n *node) {
	n.standby = true
	if n.stage == 0 || n.op == operator(rc.r.sink) {
		return // a second reader of the log; a sink holding the same rows
	}
	rep, _ := rc.r.newOp(n.spec)
	if s, ok := n.op.(stateful); ok {
		rep.(stateful).restore(s.snapshot())
	}
	n.rep = rep
}

// takeOver fails n over to its active standby: the replica has seen the
// same input, so it goes on where the primary stopped, with nothing to
// replay and nothing lost. A new standby comes up after the restart
// strategy's delay (and, when managed, the provisioning delay); until then
// another failure of n has no standby to take over.
func (rc *recovery) takeOver(n *node, now int64) {
	r := rc.r
	if n.rep != nil {
		n.op = n.rep
	}
	n.rep, n.standby = nil, false
	rc.restarted++
	rc.event(EventNodeRestarted, n.name, fmt.Sprintf("%s failed; its active standby took over at once, with nothing to replay", n.name), 0)
	delay, err := rc.backoff.onFailure(now)
	if err != nil {
		r.fail(fmt.Errorf("%s failed and %w", n.name, err))
		return
	}
	p := plan{node: n, at: now + delay, failedAt: now, standby: true, manual: r.cfg.Deployment == DeployStandalone}
	if !p.manual {
		p.at = max(p.at, now+r.cfg.Provision.Milliseconds())
	}
	rc.restarts = append(rc.restarts, p)
}

// lose drops a node's state, queue and held input; the inputs of its
// downstream nodes go quiet.
func (rc *recovery) lose(n *node) {
	r := rc.r
	n.dead = true
	// What it triggered since the last acknowledgement may or may not have
	// reached the sink: only acknowledged watermarks count from now on.
	delete(rc.trigWM, n)
	if r.det != nil {
		i := r.det.index[n]
		for q := &r.det.queues[i]; q.len() > 0; {
			if it := q.pop(); it.e.kind == kindRecord {
				rc.lostFlight++
			}
		}
	}
	for j := range n.held {
		for _, e := range n.held[j] {
			if e.kind == kindRecord {
				rc.lostFlight++
			}
		}
		n.held[j] = nil
	}
	if n.op == operator(r.sink) {
		rc.lostFlight += int64(len(r.sink.buf))
		r.sink.buf = r.sink.buf[:0]
	}
	if n.stage+1 < len(r.g.stages) {
		for _, d := range r.g.downstream(n) {
			if !d.dead && r.det != nil {
				d.inputDown(r.g.inputIndex(n), r.det.routers[r.det.index[d]], rc.backups != nil)
			}
		}
	}
}

// restart asks for a manual restart of a node (or the job manager).
func (rc *recovery) restart(name string) error {
	if name == JobManager {
		if !rc.jmDown {
			return fmt.Errorf("the job manager is running; only a killed node can be restarted")
		}
		return nil // a standby becomes leader by itself once the lease has run out
	}
	n, err := rc.lookup(name)
	if err != nil {
		return err
	}
	for i, p := range rc.restarts {
		// After a failover every task waits for the same restart: asking
		// for any of them brings the job back.
		if p.node == n || (p.whole && n.dead) {
			rc.restarts[i].released, rc.restarts[i].askedAt = true, rc.now()
			return nil
		}
	}
	if n.dead {
		return nil
	}
	return fmt.Errorf("%s is running; only a killed node can be restarted", name)
}

// killJobManager kills the coordinator (Flink documentation, "High
// Availability"). Without HA services the job manager is a single point of
// failure: the job fails with it. With a standby, the tasks lose their job
// manager and are cancelled, checkpoints in progress are aborted, and once
// the dead leader's lease has run out a standby becomes leader, reads the
// job graph and the latest completed checkpoint from the HA store, and
// restarts the whole job from it (see restoreAll). Task failures meanwhile
// wait for the new leader.
func (rc *recovery) killJobManager() {
	r := rc.r
	if r.state != StateRunning || rc.jmDown {
		return
	}
	now := rc.now()
	rc.failures++
	if r.cfg.JobManagerHA != JobManagerHAStandby {
		rc.event(EventNodeKilled, JobManager, "the job manager died with high availability off", 0)
		r.fail(errors.New("the job manager died and high availability is off (Flink's high-availability.type: NONE): the job manager is a single point of failure, and its job fails with it; with a standby job manager (high-availability.type: kubernetes or zookeeper; here `set jobmanager.ha standby`) a new leader would restart the job from its latest completed checkpoint"))
		return
	}
	rc.jmDown = true
	rc.jmFailovers++
	if rc.ckpt != nil {
		rc.ckpt.abortPending("the job manager died")
	}
	r.cur.every = 0
	for _, m := range r.g.nodes {
		m.dead = true
	}
	for _, m := range r.g.nodes {
		rc.lose(m)
	}
	// The restart of the whole job replaces whatever single restarts were
	// waiting.
	rc.restarts = append(rc.restarts[:0], plan{jm: true, whole: true, at: now + r.cfg.Lease.Milliseconds(), failedAt: now})
	rc.event(EventNodeKilled, JobManager, fmt.Sprintf("the job manager died: its tasks are cancelled and checkpoints in progress aborted; a standby becomes leader once the lease of %s has run out", r.cfg.Lease), 0)
}

// due carries out one restart whose time has come, if any.
func (rc *recovery) due() bool {
	now := rc.now()
	for i, p := range rc.restarts {
		if p.at > now || (p.manual && !p.released) || (rc.jmDown && !p.jm) {
			continue
		}
		rc.restarts = append(rc.restarts[:i], rc.restarts[i+1:]...)
		if p.standby {
			rc.provision(p.node)
			rc.event(EventNodeRestarted, p.node.name, fmt.Sprintf("a new active standby for %s is up", p.node.name), 0)
			return true
		}
		// The restart happens at its time in the model, even when the
		// scheduler gets to it later: while the whole job is down nothing
		// runs to move the clock, and the log keeps what arrives meanwhile.
		up := max(p.at, p.askedAt)
		rc.downtimeMS += up - p.failedAt
		rc.timeMS += up - p.failedAt
		rc.restarted++
		if p.jm {
			rc.jmDown = false
			rc.electionMS += up - p.failedAt
			if rc.ckpt != nil {
				rc.r.cur.every = rc.r.cfg.CheckpointInterval
			}
			rc.event(EventLeaderElected, JobManager, fmt.Sprintf("a standby job manager became leader after %d ms and restarts the job", up-p.failedAt), up-p.failedAt)
		}
		switch {
		case p.whole:
			rc.restoreAll(p)
		default:
			rc.replace(p.node, up)
		}
		return true
	}
	return false
}

// replace brings up a replacement for one node (gap recovery or upstream
// backup). It joins at the epoch its senders are in.
func (rc *recovery) replace(n *node, at int64) {
	r := rc.r
	if n.stage == 0 {
		rc.replaceSource(n, at)
		return
	}
	if n.op != operator(r.sink) {
		n.op, _ = r.newOp(n.spec)
	}
	up := r.g.upstream(n)
	n.dead = false
	n.wm = math.MinInt64
	n.epoch = math.MaxInt64
	for _, u := range up {
		i := r.g.inputIndex(u)
		n.alive[i] = !u.dead
		n.frozen[i] = u.dead && rc.backups != nil
		n.marks[i] = u.epoch
		n.kinds[i] = element{}
		n.inWM[i] = math.MinInt64
		if !u.dead {
			n.epoch = min(n.epoch, u.epoch)
		}
	}
	if n.epoch == math.MaxInt64 {
		n.epoch = r.cur.seq
	}
	w, windowed := n.op.(*windowCount)
	if windowed && rc.backups != nil {
		// The replacement starts where the acknowledged output left off:
		// windows final at that watermark were emitted and acknowledged, and
		// what it needs of the rest is replayed to it.
		if wm, ok := rc.ackedWM[n]; ok {
			w.wm, w.hasWM = wm, true
		}
	} else if rc.backups == nil {
		// Gap recovery: it joins the input where it is, watermark included:
		// a replacement without one would count records the job had already
		// given up on. (With upstream backup the replayed records come first,
		// and the watermark after them.)
		for _, u := range up {
			if i := r.g.inputIndex(u); !u.dead && n.alive[i] {
				n.inWM[i] = u.wm
			}
		}
		n.advanceWatermark(r.det.routers[r.det.index[n]])
	}
	rc.join(n)
	replayed := int64(0)
	if rc.backups != nil {
		q := &r.det.queues[r.det.index[n]]
		for _, u := range up {
			if u.dead {
				continue
			}
			for _, b := range rc.backups[u][n.index] {
				q.push(item{r.g.inputIndex(u), element{kind: kindRecord, rec: b.rec}})
				replayed++
			}
			// The sender's watermark follows what it replays, as it followed
			// the records the first time.
			if u.wm != math.MinInt64 {
				q.push(item{r.g.inputIndex(u), element{kind: kindWatermark, value: u.wm}})
			}
		}
	}
	rc.replayed += replayed
	rc.timeMS += replayed * 1000 / int64(r.spec.Source.Rate)
	text := fmt.Sprintf("%s replaced: it starts empty from the current input (gap recovery)", n.name)
	if rc.backups != nil {
		text = fmt.Sprintf("%s replaced: %d unacknowledged records replayed from upstream output queues", n.name, replayed)
	}
	rc.event(EventNodeRestarted, n.name, text, replayed)
}

// join tells a node's downstream nodes that it is back.
func (rc *recovery) join(n *node) {
	r := rc.r
	if n.stage+1 >= len(r.g.stages) {
		return
	}
	for _, d := range r.g.downstream(n) {
		if !d.dead {
			d.inputUp(r.g.inputIndex(n), n.epoch)
		}
	}
	// What it replays or receives from now on would otherwise wait for the
	// next admission's trigger: the current admission owes one more, which
	// follows everything already queued through the restarted node.
	r.cur.bounds = append(r.cur.bounds, bound{r.cur.limit, r.cur.runEnd})
}

// replaceSource restarts the source: with upstream backup it re-reads the
// log from the oldest record downstream has not acknowledged; with gap
// recovery it resumes at the current time, and what arrived meanwhile is
// never read.
func (rc *recovery) replaceSource(n *node, at int64) {
	r := rc.r
	n.dead = false
	n.epoch = r.cur.seq
	from := r.cur.off
	if rc.backups != nil {
		for _, q := range rc.backups[n] {
			for _, b := range q {
				from = min(from, b.rec.Offset)
			}
		}
		for t := range rc.backups[n] {
			rc.backups[n][t] = nil
		}
		rc.replayed += r.cur.off - from
		r.cur.off = from
	} else {
		rc.skipDowntime(at)
	}
	rc.join(n)
	rc.event(EventNodeRestarted, n.name, fmt.Sprintf("source replaced: reading the log from offset %d", r.cur.off), r.cur.off)
}

// skipDowntime moves the source past what arrived while it was down, up to
// virtual time at (gap recovery): those records are never read, and the
// watermark goes on from the current input as if they had been.
func (rc *recovery) skipDowntime(at int64) {
	r := rc.r
	skip := min(r.src.firstArrivingAtOrAfter(at), r.cur.limit)
	for ; r.cur.off < skip; r.cur.off++ {
		rc.lostFlight++
		if t := r.src.At(r.cur.off).Time; !r.cur.seen || t > r.cur.maxTime {
			r.cur.maxTime, r.cur.seen = t, true
		}
	}
}

// restoreAll restarts every node: from the last completed checkpoint, the
// source rewound to its offsets (precise recovery). Without checkpoints a
// job manager's new leader has nothing to restore: under rollback recovery
// the job starts again from the beginning of the source (the output queues
// were in the cancelled tasks); under gap recovery from the current input.
func (rc *recovery) restoreAll(p plan) {
	r := rc.r
	for _, n := range r.g.nodes {
		if r.det != nil {
			for q := &r.det.queues[r.det.index[n]]; q.len() > 0; {
				q.pop()
			}
		}
		if n.stage > 0 && n.op != operator(r.sink) {
			n.op, _ = r.newOp(n.spec)
		}
		n.dead = false
		n.epoch = r.cur.seq
		n.wm = math.MinInt64
		n.rep, n.standby = nil, false
		for j := range n.marks {
			n.marks[j], n.kinds[j], n.alive[j], n.inWM[j], n.held[j] = r.cur.seq, element{}, true, math.MinInt64, nil
			n.frozen[j] = false
		}
	}
	r.sink.buf = r.sink.buf[:0]
	rc.resetBackups()
	if rc.ha == HAActiveStandby {
		for _, n := range r.g.nodes {
			rc.provision(n)
		}
	}
	switch {
	case rc.ckpt != nil:
		from := r.cur.off
		at := rc.ckpt.restore()
		rc.replayed += from - at
		rc.timeMS += (from - at) * 1000 / int64(r.spec.Source.Rate)
		rc.event(EventNodeRestarted, JobManager, fmt.Sprintf("job restored from checkpoint %d: every node's state restored, the source rewound from offset %d to %d", rc.ckpt.restoredID, from, at), from-at)
	case rc.ha == HANone:
		rc.skipDowntime(max(p.at, p.askedAt))
		rc.event(EventNodeRestarted, JobManager, fmt.Sprintf("job restarted with empty state from the current input, offset %d: what arrived meanwhile is never read", r.cur.off), 0)
	default:
		from := r.cur.off
		r.cur.rewind(pos{nextTrigger: r.cur.trigger})
		rc.replayed += from
		rc.timeMS += from * 1000 / int64(r.spec.Source.Rate)
		rc.event(EventNodeRestarted, JobManager, fmt.Sprintf("no checkpoint to restore: job restarted with empty state from the beginning of the source, %d records read again", from), from)
	}
}

// resetBackups empties the output queues and what acknowledgements knew:
// the tasks that held them were restarted.
func (rc *recovery) resetBackups() {
	for _, qs := range rc.backups {
		for t := range qs {
			qs[t] = nil
		}
	}
	rc.backupNow = 0
	clear(rc.trigWM)
	clear(rc.ackedWM)
}

// marker observes every marker a node aligns.
func (rc *recovery) marker(n *node, e element) {
	switch e.kind {
	case kindTrigger:
		if w, ok := n.op.(*windowCount); ok && w.hasWM && rc.backups != nil {
			rc.trigWM[n] = append(rc.trigWM[n], [2]int64{n.epoch, w.wm})
		}
		if n.op == operator(rc.r.sink) {
			rc.sinkEpoch = n.epoch
			if rc.commits++; rc.commits%ackEvery == 0 {
				rc.trim()
			}
		}
	case kindBarrier:
		switch {
		case rc.ckpt == nil:
		case n.stage == 0:
			rc.ckpt.begin(e.id, rc.r.cur.pos)
		default:
			rc.ckpt.ack(n, e.id)
		}
	}
}

// acknowledgeWindows runs at each acknowledgement round: a window node's
// acknowledged watermark becomes that of its last trigger whose output the
// sink has committed. Every window final then has been emitted and
// acknowledged, so the records it counted are needed no more; windows that
// fired later are not acknowledged yet, and a replacement fires them again.
func (rc *recovery) acknowledgeWindows() {
	for n, trigs := range rc.trigWM {
		i := 0
		for i < len(trigs) && trigs[i][0] <= rc.sinkEpoch {
			rc.ackedWM[n] = trigs[i][1]
			i++
		}
		rc.trigWM[n] = append(trigs[:0], trigs[i:]...)
	}
}

// ackEvery batches acknowledgements, as real upstream backup does: the
// queues are trimmed after every ackEvery-th committed micro-batch, trading
// a little memory for far less bookkeeping.
const ackEvery = 10

// keep records what a node sent, for upstream backup.
func (rc *recovery) keep(n *node, target int, r Record) {
	q := &rc.backups[n][target]
	*q = append(*q, backupEntry{rec: r, epoch: n.epoch + 1})
	rc.backupNow++
	rc.backupPeak = max(rc.backupPeak, rc.backupNow)
}

// trim applies the acknowledgement rule after the sink commits a batch,
// from the sink upstream. A node acknowledges a record once nothing
// downstream can need it again:
//
//   - the sink, once the micro-batch holding it is committed;
//   - a stateless operator, once what it derived from the record has been
//     acknowledged in turn (it is neither queued there nor kept in its own
//     output queues);
//   - a windowed count, once every window the record counts toward was
//     final at a trigger whose output the sink committed (in complete mode
//     never: the whole table is state).
func (rc *recovery) trim() {
	if rc.backups == nil {
		return
	}
	r := rc.r
	rc.acknowledgeWindows()
	var total int64
	for s := len(r.g.stages) - 2; s >= 0; s-- {
		for _, u := range r.g.stages[s].nodes {
			for _, d := range r.g.downstream(u) {
				t := d.index
				rc.acks++ // d acknowledges to u
				need := rc.needs(d)
				q := rc.backups[u][t][:0]
				for _, b := range rc.backups[u][t] {
					if need(b) {
						q = append(q, b)
					}
				}
				clear(rc.backups[u][t][len(q):])
				rc.backups[u][t] = q
				total += int64(len(q))
			}
		}
	}
	rc.backupNow = total
}

// needs returns the predicate "d may still need this record".
func (rc *recovery) needs(d *node) func(backupEntry) bool {
	r := rc.r
	if d.dead {
		// Everything sent to a dead node is what its replacement replays.
		return func(backupEntry) bool { return true }
	}
	if d.op == operator(r.sink) {
		return func(b backupEntry) bool { return b.epoch > rc.sinkEpoch }
	}
	if w, ok := d.op.(*windowCount); ok {
		wm, acked := rc.ackedWM[d]
		if w.mode == ModeComplete || !acked {
			return func(backupEntry) bool { return true }
		}
		return func(b backupEntry) bool {
			lastEnd := floorDiv(b.rec.Time, w.slide)*w.slide + w.size
			return lastEnd > wm
		}
	}
	held := rc.scratch[d]
	if held == nil {
		held = map[int64]bool{}
		rc.scratch[d] = held // reused: trimming runs after every commit
	}
	clear(held)
	for _, q := range rc.backups[d] {
		for _, b := range q {
			held[b.rec.Offset] = true
		}
	}
	q := &r.det.queues[r.det.index[d]]
	for _, it := range q.items[q.head:] {
		held[it.e.rec.Offset] = true
	}
	for _, h := range d.held {
		for _, e := range h {
			held[e.rec.Offset] = true
		}
	}
	return func(b backupEntry) bool { return held[b.rec.Offset] }
}

// backupSize is how many records the output queues hold now.
func (rc *recovery) backupSize() (records int64) {
	for _, qs := range rc.backups {
		for _, q := range qs {
			records += int64(len(q))
		}
	}
	return records
}

// recovering reports whether recovery is under way: a node is down, or the
// job has no leader.
func (rc *recovery) recovering() bool {
	return rc.jmDown || slices.ContainsFunc(rc.r.g.nodes, func(n *node) bool { return n.dead })
}

// unfired lists the scheduled kills still waiting for their node.
func (rc *recovery) unfired() []string {
	out := []string{}
	for _, k := range rc.kills {
		if k.atCommit {
			out = append(out, k.node.name+" at commit")
			continue
		}
		out = append(out, fmt.Sprintf("%s at %d", k.node.name, k.at))
	}
	return out
}

// states reports each node's state for snapshots.
func (rc *recovery) nodeState(n *node) string {
	if !n.dead {
		return NodeRunning
	}
	for _, p := range rc.restarts {
		if (p.node == n || p.whole) && !p.standby && !(p.manual && !p.released) {
			return NodeRestarting
		}
	}
	return NodeKilled
}

// nextRestart is when the node's restart is due (virtual ms), if scheduled.
func (rc *recovery) nextRestart(n *node) (int64, bool) {
	for _, p := range rc.restarts {
		if (p.node == n || p.whole) && !p.standby {
			return p.at, true
		}
	}
	return 0, false
}
