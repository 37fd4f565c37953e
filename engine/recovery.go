package engine

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/restart"
)

// JobManager is the name `kill` and `restart` use for the coordinator.
const JobManager = "jobmanager"

// NodeState is where one node is between running, a kill and a restart.
type NodeState string

// Node states a snapshot shows.
const (
	NodeRunning    NodeState = "running"
	NodeKilled     NodeState = "killed"     // down, waiting for a restart
	NodeRestarting NodeState = "restarting" // a restart is scheduled
	// NodeCancelled is a task its job manager cancelled: the job failed,
	// or the leader died and the tasks wait for a new one to start them.
	NodeCancelled NodeState = "cancelled"
	// NodeFailed is the task whose failure failed the job: nothing
	// restarts it.
	NodeFailed NodeState = "failed"
)

// ErrNoSuchNode is returned for a node name the job does not have.
var ErrNoSuchNode = errors.New("no such node")

// ErrConcurrentFailures is returned when failures the concurrent executor
// cannot place are asked of it.
var ErrConcurrentFailures = errors.New("under the concurrent executor failures need checkpoints (ha passive-standby); other schemes need the deterministic executor, which places them at exact positions")

// ErrAlreadyDown is returned for a kill of a node that is down already.
var ErrAlreadyDown = errors.New("already down")

// Failure kinds: what went away when a node went down. Flink tells them
// apart by what the restart needs: a task that threw keeps its task
// manager and slot, and restarts after the restart strategy's backoff
// alone; a lost task manager took the slot with it, and the restarted task
// waits for a new one, which the deployment provides (or not).
const (
	// LostTaskManager is `kill NODE`: the node's task manager is gone.
	LostTaskManager = "taskmanager-lost"
	// TaskFailure is `fail NODE`, or a task that fails by itself (a
	// missing driver class): the task threw, its task manager stays.
	TaskFailure = "task-failure"
)

// noSlot is a plan's slot time while no task manager offers one: a
// standalone cluster's lost task manager until someone starts a new one.
const noSlot = math.MaxInt64

// killPlan is a scheduled kill: placed by what the node has processed,
// never by time, so the same script kills at the same record everywhere.
type killPlan struct {
	node    *node
	records int64  // dies once it has processed this many records
	kind    string // LostTaskManager or TaskFailure
	// atCommit: dies instead when the next commit reaches it (the sink),
	// whatever its count.
	atCommit bool
}

// restartPlan is a scheduled restart: placed in virtual time, after the
// restart strategy's backoff.
type restartPlan struct {
	node     *node  // nil for the job manager's failover
	at       int64  // virtual ms, once the backoff is over
	failedAt int64  // virtual ms of the failure it recovers from
	kind     string // the failure's: LostTaskManager or TaskFailure
	// slot is when a slot is there for the restarted task (virtual ms):
	// at once after a task failure, after provisioning in a managed
	// deployment, noSlot on a standalone cluster until `restart NODE`
	// starts a task manager. The task runs again at max(at, slot).
	slot    int64
	whole   bool // restart every node from the last checkpoint
	jm      bool // the job manager's failover
	standby bool // bring up a new active standby, the node itself runs
	// up brings the new active standby up (standby plans).
	up func()
}

// recovery holds what failures and recovery need whatever the scheme:
// scheduled kills and restarts, the restart strategy, the counts the report
// shows; its scheme does the rest.
type recovery struct {
	r       *Runtime
	backoff *restart.Backoff
	kills   []killPlan
	// first holds, per node with a kill waiting for a record count, the
	// smallest such count: checking it costs a step O(nodes), not
	// O(pending kills) (10 000 pending kills made a run 100× slower).
	first    []firstKill
	restarts []restartPlan
	jmDown   bool
	// jmDied says the job manager died with no standby to take over.
	jmDied bool
	// jmFailovers counts job manager failures a standby took over;
	// electionMS the virtual time the job had no leader.
	jmFailovers int64
	electionMS  int64
	failures    int64
	restarted   int64
	// taskFailures, tmLost and slotTimeouts count the failures by kind
	// (the job manager's are jmFailovers).
	taskFailures int64
	tmLost       int64
	slotTimeouts int64
	timeMS       int64
	downtimeMS   int64
	replayed     int64
	lostFlight   int64
	backupPeak   int64
	backupNow    int64 // records the output queues hold now
	acks         int64 // acknowledgement messages sent upstream
	// floor is the virtual time of the latest failure or restart. Time
	// never runs back past it: what a restored job replays it processes
	// after its restart, not when the records first arrived, so the
	// restart strategy sees failures in the order they happened.
	floor int64
	// upAt is when the latest restart brought tasks back.
	upAt int64
	// s is the high-availability scheme; ckpt the checkpoint coordinator
	// when the scheme takes checkpoints.
	s    scheme
	ckpt *coordinator
}

func newRecovery(r *Runtime, ha HAScheme) *recovery {
	rc := &recovery{r: r, backoff: restart.NewBackoff(r.cfg.Restart, r.cfg.Seed)}
	rc.s = newScheme(rc, ha)
	for _, n := range r.g.nodes {
		n.onMarker = rc.s.marker
	}
	r.g.stamp = rc.stampForSink
	return rc
}

// now is the virtual time failures and restarts are placed by: the source's
// time while it runs, the end of the admitted time while it is down (or
// the pace a player set, PaceTo), and never before the latest failure or
// restart.
func (rc *recovery) now() int64 {
	if rc.r.g.nodes[0].dead {
		return max(min(rc.r.cur.clock, rc.r.pace), rc.floor)
	}
	return max(rc.r.cur.now(), rc.floor)
}

func (rc *recovery) event(kind bus.EventKind, node, text string, n int64) {
	rc.eventAt(rc.now(), kind, node, text, n)
}

// eventAt publishes an event that happened at virtual time at (a failure
// or a restart), which may lie behind how far the source has read.
func (rc *recovery) eventAt(at int64, kind bus.EventKind, node, text string, n int64) {
	rc.r.publish(bus.Event{TimeMS: at, Kind: kind, Node: node, N: n, Text: text})
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

// killAt schedules a failure of kind once the node has processed at
// records.
func (rc *recovery) killAt(name string, at int64, kind string) error {
	n, err := rc.lookup(name)
	if err != nil {
		return err
	}
	rc.kills = append(rc.kills, killPlan{node: n, records: at, kind: kind})
	if i := slices.IndexFunc(rc.first, func(f firstKill) bool { return f.node == n }); i < 0 {
		rc.first = append(rc.first, firstKill{n, at})
	} else if at < rc.first[i].records {
		rc.first[i].records = at
	}
	rc.checkKills()
	return nil
}

// firstKill is the smallest record count a node has a kill waiting for.
type firstKill struct {
	node    *node
	records int64
}

// indexKills rebuilds first from kills.
func (rc *recovery) indexKills() {
	rc.first = rc.first[:0]
	for _, k := range rc.kills {
		if k.atCommit {
			continue
		}
		i := slices.IndexFunc(rc.first, func(f firstKill) bool { return f.node == k.node })
		switch {
		case i < 0:
			rc.first = append(rc.first, firstKill{k.node, k.records})
		case k.records < rc.first[i].records:
			rc.first[i].records = k.records
		}
	}
}

// firstAt returns the smallest count n has a kill waiting for.
func (rc *recovery) firstAt(n *node) (int64, bool) {
	for _, f := range rc.first {
		if f.node == n {
			return f.records, true
		}
	}
	return 0, false
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
	rc.kills = append(rc.kills, killPlan{node: n, atCommit: true, kind: LostTaskManager})
	return nil
}

// commitArrived delivers checkpoint id's completion to the sink node n,
// which commits, unless a kill was waiting for this moment.
func (rc *recovery) commitArrived(n *node, id int64) {
	for i, k := range rc.kills {
		if k.atCommit && k.node == n {
			rc.kills = append(rc.kills[:i], rc.kills[i+1:]...)
			rc.event(bus.EventCheckpoint, n.name, fmt.Sprintf("checkpoint %d completed, but %s dies before it commits transaction %d", id, n.name, id), id)
			rc.killWith(n, rc.reached(n), LostTaskManager, nil)
			return
		}
	}
	rc.ckpt.commit(id)
}

// mustDie reports whether n has reached a scheduled kill; the concurrent
// executor asks it from n's own goroutine, while the plans do not change.
func (rc *recovery) mustDie(n *node) bool {
	at, ok := rc.firstAt(n)
	return ok && n.counts.In >= at
}

// checkKills carries out the scheduled kills that are due.
func (rc *recovery) checkKills() {
	due := false
	for _, f := range rc.first {
		if !f.node.dead && f.node.counts.In >= f.records {
			due = true
			break
		}
	}
	if !due {
		return
	}
	defer rc.indexKills()
	keep := rc.kills[:0]
	for _, k := range rc.kills {
		if !k.node.dead && !k.atCommit && k.node.counts.In >= k.records {
			rc.killWith(k.node, rc.reached(k.node), k.kind, nil)
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
	return max(t, rc.floor)
}

// kill makes a node fail now with a failure of kind: its state, its input
// queue and what alignment held back are gone.
func (rc *recovery) kill(n *node, kind string) { rc.killWith(n, rc.now(), kind, nil) }

// killWith makes a node fail at now with a failure of kind; cause, when not
// nil, is why the task failed by itself (it is in the event and in
// job.error).
func (rc *recovery) killWith(n *node, now int64, kind string, cause error) {
	r := rc.r
	if r.state != StateRunning || n.dead {
		return
	}
	// A restarted task fails a moment after it is deployed at the
	// earliest, never at the same instant: replay takes no virtual time
	// here, and Flink would merge a failure at the restart's own instant
	// into the attempt that restart made.
	now = max(now, rc.floor)
	if now == rc.upAt && rc.restarted > 0 {
		now++
	}
	rc.floor = now
	rc.failures++
	if kind == TaskFailure {
		rc.taskFailures++
	} else {
		rc.tmLost++
	}
	// Told before the scheme acts, so that a failover to an active
	// standby, which the scheme handles alone, is a failure in the log
	// like any other.
	var text string
	switch {
	case cause != nil:
		text = fmt.Sprintf("%s failed after %d records: %v (a task failure: its task manager stays)", n.name, n.counts.In, cause)
	case kind == TaskFailure:
		text = fmt.Sprintf("%s failed after %d records: the task threw, its state and its input queue are gone; its task manager and slot stay", n.name, n.counts.In)
	default:
		text = fmt.Sprintf("%s killed after %d records: its task manager is lost, and with it the task's state, its input queue and its slot", n.name, n.counts.In)
	}
	rc.eventAt(now, bus.EventNodeKilled, n.name, text, n.counts.In)
	handled, whole := rc.s.failed(n, now, kind)
	if handled {
		return
	}
	if whole {
		for _, m := range r.g.nodes {
			m.dead = true
		}
		for _, m := range r.g.nodes {
			rc.lose(m)
		}
	} else {
		rc.lose(n)
	}
	what := fmt.Sprintf("%s failed", n.name)
	if cause != nil {
		what = fmt.Sprintf("%s failed (%v)", n.name, cause)
	}
	rc.schedule(restartPlan{node: n, failedAt: now, kind: kind, slot: rc.slotAfter(kind, now), whole: whole}, now, what)
}

// slotAfter is when a slot is there for a task restarted after a failure
// of kind at now: at once when the task threw (its task manager stays);
// after provisioning when a resource manager replaces a lost task manager;
// never by itself on a standalone cluster, until `restart NODE` starts one.
func (rc *recovery) slotAfter(kind string, now int64) int64 {
	switch {
	case kind == TaskFailure:
		return now
	case rc.r.cfg.Deployment == DeployManaged:
		return now + rc.r.cfg.Provision.Milliseconds()
	}
	return noSlot
}

// schedule asks the restart strategy about a failure at now and schedules
// p's restart after its backoff, or fails the job (what failed is what
// job.error then says failed).
func (rc *recovery) schedule(p restartPlan, now int64, what string) {
	r := rc.r
	delay, err := rc.backoff.OnFailure(now)
	if err != nil {
		r.fail(now, fmt.Errorf("%s and %w", what, err))
		return
	}
	p.at = now + delay
	rc.restarts = append(rc.restarts, p)
	name := p.node.name
	var how string
	switch {
	case p.slot == noSlot:
		how = fmt.Sprintf("restart in %d ms by %s; standalone: the task then waits for a slot until `restart %s` starts a task manager, or slot.request.timeout (%s) fails the request", delay, r.cfg.Restart, name, r.cfg.SlotRequestTimeout)
	case p.slot > p.at:
		// Flink restarts after the backoff, and the tasks wait for a slot
		// on the task manager requested at the loss: the longer counts.
		how = fmt.Sprintf("restart scheduled in %d ms: provisioning a new task manager (%d ms) outlasts the %s backoff (%d ms)", p.slot-now, p.slot-now, r.cfg.Restart.Kind, delay)
	case p.slot > now:
		how = fmt.Sprintf("restart scheduled in %d ms by %s; provisioning a new task manager (%d ms) ends within the backoff", delay, r.cfg.Restart, p.slot-now)
	default:
		how = fmt.Sprintf("restart scheduled in %d ms by %s", delay, r.cfg.Restart)
	}
	rc.eventAt(now, bus.EventRestartScheduled, name, how, max(p.at, min(p.slot, p.at+r.cfg.SlotRequestTimeout.Milliseconds()))-now)
}

// slotTimedOut fails the restart p, whose task waited for a slot from p.at
// until at without one: Flink's slot request gives up after
// slot.request.timeout with NoResourceAvailableException, a new failure the
// restart strategy counts. A standalone job with a small attempt budget
// therefore fails a few minutes after losing a task manager nobody
// replaces; exponential-delay cycles for ever.
func (rc *recovery) slotTimedOut(p restartPlan, at int64) {
	rc.floor = max(rc.floor, at)
	rc.failures++
	rc.slotTimeouts++
	msg := "NoResourceAvailableException: Could not acquire the minimum required resources."
	rc.eventAt(at, bus.EventNodeKilled, p.node.name, fmt.Sprintf("%s: %s (no slot within slot.request.timeout %s: no task manager has joined since the last one was lost)", p.node.name, msg, rc.r.cfg.SlotRequestTimeout), 0)
	rc.schedule(restartPlan{node: p.node, failedAt: p.failedAt, kind: p.kind, slot: p.slot, whole: p.whole}, at, fmt.Sprintf("%s could not be restarted (%s)", p.node.name, msg))
}

// lose drops a node's state, queue and held input; the inputs of its
// downstream nodes go quiet.
func (rc *recovery) lose(n *node) {
	r := rc.r
	n.dead = true
	if r.det != nil {
		i := r.det.index[n]
		for q := &r.det.queues[i]; q.len() > 0; {
			if it := q.pop(); it.e.kind == kindRecord {
				rc.lostFlight++
			}
		}
	}
	for j := range n.held {
		n.held[j].each(func(e element) {
			if e.kind == kindRecord {
				rc.lostFlight++
			}
		})
		n.held[j].reset()
	}
	rc.lostFlight += int64(len(n.epochRecs)) // received, not yet handed to its operator
	n.epochRecs = nil
	if n.op == operator(r.sink) {
		rc.lostFlight += int64(len(r.sink.buf))
		r.sink.drop()
	}
	if n.stage+1 < len(r.g.stages) {
		for _, d := range r.g.downstream(n) {
			if !d.dead && r.det != nil {
				d.inputDown(r.g.inputIndex(n), rc.router(d), rc.s.holdsWatermark())
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
		// for any of them brings the job back. A restart that has its
		// slot (a task failure, a managed deployment) needs nothing.
		if p.node == n || (p.whole && n.dead) {
			if p.slot == noSlot {
				rc.restarts[i].slot = rc.now()
			}
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
	rc.floor = now
	rc.failures++
	if r.cfg.JobManagerHA != JobManagerHAStandby {
		rc.jmDied = true
		rc.eventAt(now, bus.EventNodeKilled, JobManager, "the job manager died with high availability off", 0)
		r.fail(now, errors.New("the job manager died and high availability is off (Flink's high-availability.type: NONE): the job manager is a single point of failure, and its job fails with it; with a standby job manager (high-availability.type: kubernetes or zookeeper; here `set jobmanager.ha standby`) a new leader would restart the job from its latest completed checkpoint"))
		return
	}
	rc.jmDown = true
	rc.jmFailovers++
	rc.s.cancel("the job manager died")
	for _, m := range r.g.nodes {
		m.dead = true
	}
	for _, m := range r.g.nodes {
		rc.lose(m)
	}
	// The restart of the whole job replaces whatever single restarts were
	// waiting.
	rc.restarts = append(rc.restarts[:0], restartPlan{jm: true, whole: true, at: now + r.cfg.Lease.Milliseconds(), failedAt: now})
	rc.eventAt(now, bus.EventNodeKilled, JobManager, fmt.Sprintf("the job manager died: its tasks are cancelled and checkpoints in progress aborted; a standby becomes leader once the lease of %s has run out", r.cfg.Lease), 0)
}

// due carries out one restart whose time has come, if any.
func (rc *recovery) due() bool {
	now := rc.now()
	timeout := rc.r.cfg.SlotRequestTimeout.Milliseconds()
	for i, p := range rc.restarts {
		if p.at > now || (rc.jmDown && !p.jm) {
			continue
		}
		if p.slot > now {
			// Still waiting for a slot: once the request has waited
			// slot.request.timeout it fails (a standby's new replica is
			// the lab's own and waits as long as it takes).
			if give := p.at + timeout; !p.standby && !p.jm && p.slot > give && give <= now {
				rc.restarts = append(rc.restarts[:i], rc.restarts[i+1:]...)
				rc.slotTimedOut(p, give)
				return true
			}
			continue
		}
		rc.restarts = append(rc.restarts[:i], rc.restarts[i+1:]...)
		if p.standby {
			p.up()
			rc.eventAt(max(p.at, p.slot), bus.EventNodeRestarted, p.node.name, fmt.Sprintf("a new active standby for %s is up", p.node.name), 0)
			return true
		}
		// The restart happens at its time in the model, even when the
		// scheduler gets to it later: while the whole job is down nothing
		// runs to move the clock, and the log keeps what arrives meanwhile.
		up := max(p.at, p.slot)
		rc.r.followFailureTo(up) // the failure-free run goes on until then
		rc.floor = max(rc.floor, up)
		rc.upAt = rc.floor
		rc.downtimeMS += up - p.failedAt
		rc.timeMS += up - p.failedAt
		rc.restarted++
		if p.jm {
			rc.jmDown = false
			rc.electionMS += up - p.failedAt
			rc.eventAt(up, bus.EventLeaderElected, JobManager, fmt.Sprintf("a standby job manager became leader after %d ms and restarts the job", up-p.failedAt), up-p.failedAt)
		}
		switch {
		case p.whole:
			rc.restoreAll(up)
		default:
			rc.replace(p.node, up)
		}
		return true
	}
	return false
}

// replace brings up a replacement for one node (gap recovery or upstream
// backup). It joins at the epoch its senders are in, and its scheme says
// what it starts from and what is replayed to it.
func (rc *recovery) replace(n *node, at int64) {
	r := rc.r
	n.restarts++
	if n.stage == 0 {
		rc.replaceSource(n, at)
		return
	}
	if n.op != operator(r.sink) {
		old := n.op
		n.op, _ = r.newOp(n.spec)
		r.carryLate(old, n.op)
	}
	up := r.g.upstream(n)
	n.dead = false
	n.wm = math.MinInt64
	n.epoch = math.MaxInt64
	for _, u := range up {
		i := r.g.inputIndex(u)
		n.alive[i] = !u.dead
		n.frozen[i] = u.dead && rc.s.holdsWatermark()
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
	rc.s.start(n)
	rc.join(n)
	replayed, text := rc.s.replay(n)
	rc.replayed += replayed
	rc.timeMS += replayed * 1000 / int64(r.spec.Source.Rate)
	rc.eventAt(at, bus.EventNodeRestarted, n.name, text, replayed)
}

// router is where d's output goes under the deterministic executor; the
// concurrent one recovers only between admissions, with nothing held.
func (rc *recovery) router(d *node) router {
	if rc.r.det == nil {
		return nil
	}
	return rc.r.det.routers[rc.r.det.index[d]]
}

// join tells a node's downstream nodes that it is back.
func (rc *recovery) join(n *node) {
	r := rc.r
	for _, d := range r.g.downstream(n) {
		if !d.dead {
			d.inputUp(r.g.inputIndex(n), n.epoch, rc.router(d))
		}
	}
	// What it replays or receives from now on would otherwise wait for the
	// next admission's trigger: the current admission owes one more, which
	// follows everything already queued through the restarted node (the
	// sink's too: its replayed records commit only at a trigger).
	r.cur.bounds = append(r.cur.bounds, bound{r.cur.limit, r.cur.runEnd})
}

// replaceSource restarts the source where its scheme says: with upstream
// backup from the oldest record downstream has not acknowledged, with gap
// recovery at the current time.
func (rc *recovery) replaceSource(n *node, at int64) {
	r := rc.r
	n.dead = false
	n.epoch = r.cur.seq
	replayed := rc.s.restartSource(at)
	rc.join(n)
	rc.eventAt(at, bus.EventNodeRestarted, n.name, fmt.Sprintf("source replaced: reading the log from offset %d, %d records again", r.cur.off, replayed), replayed)
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

// restoreAll restarts every node at virtual time at, empty, and lets the
// scheme position the source: from the last completed checkpoint (precise
// recovery); without checkpoints a job manager's new leader has nothing to
// restore, so rollback recovery starts again from the beginning of the
// source (the output queues were in the cancelled tasks) and gap recovery
// from the current input.
func (rc *recovery) restoreAll(at int64) {
	r := rc.r
	for _, n := range r.g.nodes {
		if r.det != nil {
			for q := &r.det.queues[r.det.index[n]]; q.len() > 0; {
				q.pop()
			}
		}
		if n.stage > 0 && n.op != operator(r.sink) {
			old := n.op
			n.op, _ = r.newOp(n.spec)
			r.carryLate(old, n.op)
		}
		n.dead = false
		n.restarts++
		n.epoch = r.cur.seq
		n.wm = math.MinInt64
		n.rep, n.standby = nil, false
		n.epochRecs = nil
		for j := range n.marks {
			n.marks[j], n.kinds[j], n.alive[j], n.inWM[j], n.held[j] = r.cur.seq, element{}, true, math.MinInt64, heldQueue{}
			n.frozen[j] = false
		}
	}
	r.sink.drop()
	replayed, how := rc.s.restartJob(at)
	rc.replayed += replayed
	rc.timeMS += replayed * 1000 / int64(r.spec.Source.Rate)
	rc.eventAt(at, bus.EventNodeRestarted, JobManager, how, replayed)
}

// recovering reports whether recovery is under way: a node is down, or the
// job has no leader.
func (rc *recovery) recovering() bool {
	return rc.jmDown || slices.ContainsFunc(rc.r.g.nodes, func(n *node) bool { return n.dead })
}

// backupSize is how many records the output queues hold now.
func (rc *recovery) backupSize() (records int64) {
	for _, n := range rc.r.g.nodes {
		records += rc.s.backlog(n)
	}
	return records
}

// unfired lists the scheduled kills still waiting for their node.
func (rc *recovery) unfired() []string {
	out := []string{}
	for _, k := range rc.kills {
		if k.atCommit {
			out = append(out, k.node.name+" at commit")
			continue
		}
		out = append(out, fmt.Sprintf("%s at %d", k.node.name, k.records))
	}
	return out
}

// nodeState reports a node's state for snapshots. When the job has
// failed, or has no leader, its job manager has cancelled every task but
// the one that failed.
func (rc *recovery) nodeState(n *node) NodeState {
	switch {
	case rc.r.state == StateFailed && n.dead:
		return NodeFailed
	case rc.r.state == StateFailed || rc.jmDown:
		return NodeCancelled
	case !n.dead:
		return NodeRunning
	}
	for _, p := range rc.restarts {
		if (p.node == n || p.whole) && !p.standby && p.slot != noSlot {
			return NodeRestarting
		}
	}
	return NodeKilled
}

// nextRestart is when the node's restart is due (virtual ms), if scheduled:
// once the backoff is over and a slot is there. A task waiting for a
// task manager nobody starts has no such time, nor one of a failed job.
func (rc *recovery) nextRestart(n *node) (int64, bool) {
	if rc.r.state == StateFailed {
		return 0, false
	}
	for _, p := range rc.restarts {
		if (p.node == n || p.whole) && !p.standby && p.slot != noSlot {
			return max(p.at, p.slot), true
		}
	}
	return 0, false
}

// standbyUpAt is when n's next active standby comes up, while its last
// one has taken over and the new one is not up yet.
func (rc *recovery) standbyUpAt(n *node) (int64, bool) {
	for _, p := range rc.restarts {
		if p.node == n && p.standby {
			return max(p.at, p.slot), p.slot != noSlot
		}
	}
	return 0, false
}

// leaseEndsMS is when the dead leader's lease runs out and a standby
// takes over, while the job has no leader.
func (rc *recovery) leaseEndsMS() int64 {
	for _, p := range rc.restarts {
		if p.jm {
			return p.at
		}
	}
	return 0
}

// failedNode reports whether a restart of the whole job on the way
// recovers from n's own failure (not from another task's, or the job
// manager's): the task among the restarting ones that went down.
func (rc *recovery) failedNode(n *node) bool {
	if !n.dead {
		return false
	}
	for _, p := range rc.restarts {
		if p.node == n && p.whole && !p.standby {
			return true
		}
	}
	return false
}
