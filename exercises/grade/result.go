package grade

// Result is the outcome of grading a set of exercises.
type Result struct {
	Score    float64 `json:"score"`
	MaxScore float64 `json:"max_score"`
	Passed   bool    `json:"passed"`
	// Seed is the seed that overrode every exercise's own (--seed), or nil
	// (JSON null) when each exercise ran under its own: the field is always
	// there, so that a script can tell which.
	Seed      *int64           `json:"seed"`
	Exercises []ExerciseResult `json:"exercises"`
	// Interrupted is true when a signal stopped grading: the exercises not
	// graded by then fail with that reason.
	Interrupted bool `json:"interrupted,omitempty"`
}

// ExerciseResult is the outcome of grading one exercise.
type ExerciseResult struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Kind  string `json:"kind"`
	// Seed is the seed graded under (the first of Seeds); it is left out
	// when it is a student's own seed and the grader was not told to reveal
	// it, since with it the scenario's report gives the answers away.
	Seed *int64 `json:"seed,omitempty"`
	// Seeds is how many seeds the answer was graded under.
	Seeds    int     `json:"seeds"`
	Answer   string  `json:"answer"`
	Score    float64 `json:"score"`
	MaxScore float64 `json:"max_score"`
	Passed   bool    `json:"passed"`
	// Error says why the answer could not be graded (a broken or missing
	// answer file, an answer the engine rejects, the time limit), naming
	// the file, line and column where there is one. Every check then fails.
	Error string `json:"error,omitempty"`
	// At is where the error is, when it has a position.
	At *Position `json:"at,omitempty"`
	// Reason is Error without the position At names, for a message that
	// shows it beside the position; reports leave it out.
	Reason string `json:"-"`
	// InScenario says the error came from the exercise's scenario, after
	// the answer's settings (ErrScenario); reports leave it out.
	InScenario bool `json:"-"`
	// NotStarted says the job was refused at submission (a connector or
	// driver missing or built for another Flink); reports leave it out.
	NotStarted bool `json:"-"`
	// Internal marks an exercise whose grading broke (the wall-time guard,
	// a bug in the grader): its zero is no grade, and a gradebook says so.
	Internal bool          `json:"internal_error,omitempty"`
	Checks   []CheckResult `json:"checks"`
}

// Position is a place in a file; Line and Col are 1-based, 0 when unknown.
type Position struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// CheckResult is the outcome of one check.
type CheckResult struct {
	Name       string  `json:"name"`
	Points     float64 `json:"points"`
	Score      float64 `json:"score"`
	Passed     bool    `json:"passed"`
	Visibility string  `json:"visibility"`
	// Expected is what the check wanted: a visible expect check's
	// expression; a prediction's right answer only when the grader reveals
	// it. Actual is what it found (a prediction: what the student answered).
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Message says what happened, for a person.
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// add appends an exercise's result and updates the totals.
func (r *Result) add(e ExerciseResult) {
	r.Exercises = append(r.Exercises, e)
	r.Score += e.Score
	r.MaxScore += e.MaxScore
	r.Passed = true
	for _, x := range r.Exercises {
		r.Passed = r.Passed && x.Passed
	}
}
