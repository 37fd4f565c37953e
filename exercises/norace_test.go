//go:build !race

package exercises_test

// fixedSeeds: see race_test.go.
const fixedSeeds = 400
