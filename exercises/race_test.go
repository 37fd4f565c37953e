//go:build race

package exercises_test

// fixedSeeds is how many seeds TestFixedAnswersPassUnderFewSeeds tries:
// under the race detector, which slows the engine tenfold, a sample of 100
// judged with lint's allowance; 400 otherwise.
const fixedSeeds = 100
