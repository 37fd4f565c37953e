package script

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/streamlab/streamlab/internal/poserr"
)

// parseLine parses one line; its errors carry a column only.
func parseLine(line int, s string) (Command, *poserr.Error) {
	if err := checkText(s); err != nil {
		return Command{}, err
	}
	lx := &lexer{s: s}
	verb, ok, err := lx.next()
	if err != nil || !ok {
		return Command{}, err
	}
	if !slices.Contains(verbs, verb.text) {
		return Command{}, errAt(verb.col, "unknown verb %q; expected one of %s%s", verb.text, strings.Join(verbs, ", "), suggest(verb.text))
	}
	c := Command{Verb: verb.text, Line: line, Col: verb.col}
	if c.Verb == VerbExpect {
		// The expression has its own lexer: spaces around the operator are
		// optional, so `sink.lost==0` is three tokens, not one.
		if err := parseExpect(&c, lx); err != nil {
			return Command{}, err
		}
		return c, nil
	}
	var toks []token
	for {
		t, ok, err := lx.next()
		if err != nil {
			return Command{}, err
		}
		if !ok {
			break
		}
		if len(toks) == MaxArgs {
			return Command{}, errAt(t.col, "too many arguments; a command takes at most %d", MaxArgs)
		}
		toks = append(toks, t)
	}
	last := verb
	if len(toks) > 0 {
		last = toks[len(toks)-1]
	}
	c.Text = s[verb.col-1 : last.end]
	// missing points just past the last token, where an argument was expected.
	missing := last.end + 1
	switch c.Verb {
	case VerbJob:
		err = parseJob(&c, toks, missing)
	case VerbSet:
		err = parseSet(&c, toks, missing)
	case VerbRun:
		err = parseRun(&c, toks, missing)
	case VerbKill:
		err = parseKill(&c, toks, missing)
	case VerbFail:
		err = parseFail(&c, toks, missing)
	case VerbRestart:
		err = parseRestart(&c, toks, missing)
	case VerbStep:
		err = parseStep(&c, toks)
	case VerbWhy:
		err = parseWhy(&c, s, toks, missing)
	default: // report, pause, resume
		if len(toks) > 0 {
			err = errAt(toks[0].col, "%s takes no arguments, got %q", c.Verb, toks[0].text)
		}
	}
	if err != nil {
		return Command{}, err
	}
	return c, nil
}

// addArgs records tokens as the command's Args.
func (c *Command) addArgs(toks []token) {
	for _, t := range toks {
		c.Args = append(c.Args, Arg{Text: t.text, Line: c.Line, Col: t.col})
	}
}

func parseJob(c *Command, toks []token, missing int) *poserr.Error {
	switch {
	case len(toks) == 0:
		return errAt(missing, `job needs a job name or a path to a job file, e.g. "job clicks"`)
	case len(toks) > 1:
		return errAt(toks[1].col, "job takes one argument, got extra %q; quote a path that has spaces", toks[1].text)
	}
	c.addArgs(toks)
	return nil
}

// parseSet splits `set KEY VALUE [WORD | name=value ...]`. Which keys and
// values exist is the interpreter's business; here only the shape counts.
func parseSet(c *Command, toks []token, missing int) *poserr.Error {
	if len(toks) == 0 {
		return errAt(missing, `set needs KEY VALUE, e.g. "set semantics exactly-once"`)
	}
	key := toks[0]
	if !isDottedName(key.text) {
		return errAt(key.col, "bad setting name %q; expected a dotted name like semantics or checkpoint.interval", key.text)
	}
	if len(toks) == 1 {
		return errAt(missing, `set %s needs a value, e.g. "set seed 7"`, key.text)
	}
	if v := toks[1]; !v.quoted && strings.Contains(v.text, "=") {
		return errAt(v.col, "set %s needs a value before its parameters, got %q", key.text, v.text)
	}
	c.addArgs(toks[:2])
	for _, t := range toks[2:] {
		if t.quoted || !strings.Contains(t.text, "=") {
			c.addArgs([]token{t})
			continue
		}
		name, value, _ := strings.Cut(t.text, "=")
		switch {
		case name == "":
			return errAt(t.col, "parameter %q needs a name before =, e.g. n=10000", t.text)
		case !isParamName(name):
			return errAt(t.col, "bad parameter name %q; expected a name like n, attempts or max-failures", name)
		case value == "":
			return errAt(t.col, "parameter %s needs a value after =, e.g. %s=3", name, name)
		}
		if p, dup := c.Param(name); dup {
			return errAt(t.col, "parameter %s given twice (first at column %d)", name, p.Col)
		}
		c.Params = append(c.Params, Param{Name: name, Value: value, Line: c.Line, Col: t.col})
	}
	return nil
}

// parseRun reads `run N` or `run DURATION`. A bare integer is a record
// count (`run 30` is 30 records, not 30 seconds); anything else must be a
// Go duration with a unit.
func parseRun(c *Command, toks []token, missing int) *poserr.Error {
	const usage = `run needs a record count or a duration, e.g. "run 2000" or "run 30s"`
	switch {
	case len(toks) == 0:
		return errAt(missing, usage)
	case len(toks) > 1:
		return errAt(toks[1].col, "run takes one argument, got extra %q", toks[1].text)
	}
	t := toks[0]
	if n, err := parseCount(t.text); err == nil {
		switch {
		case n == 0:
			return errAt(t.col, "run needs a positive record count, got 0")
		case n > MaxRunRecords:
			return errAt(t.col, "run count %s is too large; at most %d records per run", t.text, MaxRunRecords)
		}
		c.Count = n
	} else if errors.Is(err, strconv.ErrRange) {
		return errAt(t.col, "run count %s is too large; at most %d records per run", t.text, MaxRunRecords)
	} else {
		d, err := time.ParseDuration(t.text)
		switch {
		case err != nil:
			return errAt(t.col, `run needs a record count or a duration, got %q; e.g. "run 2000" or "run 30s"`, t.text)
		case d <= 0:
			return errAt(t.col, "run needs a positive duration, got %q", t.text)
		case d > MaxRunDuration:
			return errAt(t.col, "run duration %s is too long; at most 24h per run", t.text)
		}
		c.Duration = d
	}
	c.addArgs(toks)
	return nil
}

// parseKill reads `kill NODE [at N | at commit]`: a lost task manager.
func parseKill(c *Command, toks []token, missing int) *poserr.Error {
	return parseFailure(c, toks, missing, `e.g. "kill count[1]", "kill count[1] at 1200" or "kill sink at commit"`, true)
}

// parseFail reads `fail NODE [at N]`: a task that throws has no moment
// like a commit to wait for, only a record count.
func parseFail(c *Command, toks []token, missing int) *poserr.Error {
	return parseFailure(c, toks, missing, `e.g. "fail count[1]" or "fail count[1] at 1200"`, false)
}

// parseFailure reads the node and the `at` of kill and fail; only kill
// may wait for a commit.
func parseFailure(c *Command, toks []token, missing int, example string, commit bool) *poserr.Error {
	if len(toks) == 0 {
		return errAt(missing, "%s needs a node name, %s", c.Verb, example)
	}
	if err := checkNode(toks[0]); err != nil {
		return err
	}
	c.Node = toks[0].text
	switch {
	case len(toks) == 1:
	case toks[1].text != "at":
		return errAt(toks[1].col, `expected "at N" after the node, got %q; %s`, toks[1].text, example)
	case len(toks) == 2:
		return errAt(missing, `"at" needs a record count, %s`, example)
	case len(toks) > 3:
		return errAt(toks[3].col, `%s takes NODE [at N], got extra %q`, c.Verb, toks[3].text)
	case commit && toks[2].text == "commit":
		c.AtCommit = true
	default:
		n, err := parseCount(toks[2].text)
		if err != nil {
			want := "a non-negative record count"
			if commit {
				want += ` or "commit"`
			}
			return errAt(toks[2].col, `"at" needs %s, got %q; %s`, want, toks[2].text, example)
		}
		c.At, c.HasAt = n, true
	}
	c.addArgs(toks)
	return nil
}

func parseRestart(c *Command, toks []token, missing int) *poserr.Error {
	switch {
	case len(toks) == 0:
		return errAt(missing, `restart needs a node name, e.g. "restart count[1]"`)
	case len(toks) > 1:
		return errAt(toks[1].col, "restart takes one node, got extra %q", toks[1].text)
	}
	if err := checkNode(toks[0]); err != nil {
		return err
	}
	c.Node = toks[0].text
	c.addArgs(toks)
	return nil
}

func parseStep(c *Command, toks []token) *poserr.Error {
	c.Count = 1
	switch {
	case len(toks) == 0:
		return nil
	case len(toks) > 1:
		return errAt(toks[1].col, "step takes at most one count, got extra %q", toks[1].text)
	}
	n, err := parseCount(toks[0].text)
	if err != nil || n == 0 || n > MaxSteps {
		return errAt(toks[0].col, "step needs a number of steps from 1 to %d, got %q", MaxSteps, toks[0].text)
	}
	c.Count = n
	c.addArgs(toks)
	return nil
}

// parseExpect reads FIELD OP VALUE from the rest of the line.
func parseExpect(c *Command, lx *lexer) *poserr.Error {
	const usage = `expect needs FIELD OP VALUE, e.g. "sink.lost == 0"`
	if lx.done() {
		return errAt(lx.i+1, usage)
	}
	start := lx.i
	fieldCol := lx.i + 1
	field := lx.while(isWordByte)
	switch {
	case field == "":
		return errAt(fieldCol, "%s; got %q where a field was expected", usage, lx.peekWord())
	case !isDottedName(field):
		return errAt(fieldCol, "bad field name %q; expected a dotted name like sink.lost or job.state", field)
	}
	if lx.done() {
		return errAt(lx.i+1, "%s; %s has no operator", usage, field)
	}
	opCol := lx.i + 1
	op := lx.while(isOpByte)
	switch {
	case op == "":
		return errAt(opCol, "expected a comparison (==, !=, <, <=, >, >=) after %s, got %q", field, lx.peekWord())
	case op == "=":
		return errAt(opCol, `"=" is not a comparison; did you mean ==?`)
	case !isOp(op):
		return errAt(opCol, "unknown comparison %q; expected one of ==, !=, <, <=, >, >=", op)
	}
	if lx.done() {
		return errAt(lx.i+1, "%s; %s %s has no value", usage, field, op)
	}
	valCol := lx.i + 1
	var v Value
	if lx.s[lx.i] == '"' {
		text, err := lx.quoted()
		if err != nil {
			return err
		}
		v = Value{Kind: String, Text: text}
	} else {
		word := lx.while(isWordByte)
		if word == "" {
			return errAt(valCol, "expected a value after %s, got %q", op, lx.peekWord())
		}
		var err *poserr.Error
		if v, err = bareValue(word, valCol); err != nil {
			return err
		}
	}
	end := lx.i
	if !lx.done() {
		return errAt(lx.i+1, "unexpected %q after the expression; %s", lx.peekWord(), usage)
	}
	c.Text = lx.s[c.Col-1 : end]
	c.Expr = Expr{Field: field, Op: op, Value: v, Text: lx.s[start:end]}
	c.Args = []Arg{
		{Text: field, Line: c.Line, Col: fieldCol},
		{Text: op, Line: c.Line, Col: opCol},
		{Text: v.Text, Line: c.Line, Col: valCol},
	}
	return nil
}

// bareValue classifies an unquoted expect value. A word that starts like a
// number must be one: `== 5s` is more likely a mistake than the text "5s".
func bareValue(word string, col int) (Value, *poserr.Error) {
	switch {
	case word == "true" || word == "false":
		return Value{Kind: Bool, Text: word, Bool: word == "true"}, nil
	case isNumber(word):
		f, err := strconv.ParseFloat(word, 64)
		if err != nil {
			return Value{}, errAt(col, "number %s is out of range", word)
		}
		return Value{Kind: Number, Text: word, Num: f}, nil
	case startsLikeNumber(word):
		return Value{}, errAt(col, "bad number %q; quote it to compare as text", word)
	}
	return Value{Kind: String, Text: word}, nil
}

// isWordByte is true for bytes of a bare word inside an expression.
func isWordByte(b byte) bool {
	return !isSpace(b) && b != '#' && b != '"' && !isOpByte(b)
}

func isOpByte(b byte) bool { return b == '=' || b == '!' || b == '<' || b == '>' }

func isOp(s string) bool {
	switch s {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// parseCount reads a non-negative decimal integer: digits only, so that
// "+5", "1_000" and "0x10" are not counts.
func parseCount(s string) (int64, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseInt(s, 10, 64)
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' }
func isDigit(b byte) bool  { return b >= '0' && b <= '9' }

// isIdent reports whether s is a letter or _ followed by letters, digits,
// _ and the bytes in extra.
func isIdent(s, extra string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) && !strings.ContainsRune(extra, rune(s[i])) {
			return false
		}
	}
	return true
}

// isDottedName is the shape of setting keys and report fields:
// identifiers joined by dots, e.g. checkpoint.interval, filter.measured_fp.
func isDottedName(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if !isIdent(part, "") {
			return false
		}
	}
	return true
}

// isParamName allows hyphens and dots, as Flink's restart options have
// them (max-failures-per-interval).
func isParamName(s string) bool { return isIdent(s, "-.") }

// checkNode checks the shape of a node name: an operator name, optionally
// with an instance index (count[1]), or jobmanager. Whether the node
// exists depends on the job, so the interpreter checks that.
func checkNode(t token) *poserr.Error {
	name, index, indexed := strings.Cut(t.text, "[")
	ok := isIdent(name, "-.")
	if indexed {
		digits, closed := strings.CutSuffix(index, "]")
		ok = ok && closed && digits != "" && len(digits) <= 9 &&
			strings.Trim(digits, "0123456789") == "" &&
			(digits == "0" || digits[0] != '0')
	}
	if !ok {
		return errAt(t.col, "bad node name %q; expected a node like count[1], parse, sink or jobmanager", t.text)
	}
	return nil
}

// isNumber accepts [+-] digits [. digits] [e [+-] digits], with digits on
// at least one side of the point: the numbers people write, and not the
// "inf", "0x1p3" or "1_0" that strconv.ParseFloat would also take.
func isNumber(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return i - j
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// startsLikeNumber reports whether a word begins like a number: a digit,
// after an optional sign and an optional point.
func startsLikeNumber(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	s = strings.TrimPrefix(s, ".")
	return s != "" && isDigit(s[0])
}

// suggest returns " (did you mean kill?)" for a verb within a small edit
// distance of a known one, or "".
func suggest(word string) string {
	best, bestDist := "", 3
	for _, v := range verbs {
		d := editDistance(strings.ToLower(word), v)
		if d < bestDist && (d <= 1 || len(v) > 4) {
			best, bestDist = v, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// editDistance is the Levenshtein distance, in bytes; verbs are ASCII.
// Long words are cut short: nothing over 12 bytes is near a verb anyway.
func editDistance(a, b string) int {
	if len(a) > 12 {
		return len(a)
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
