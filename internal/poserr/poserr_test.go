package poserr_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/streamlab/streamlab/internal/poserr"
)

var errBad = errors.New("bad thing")

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		e    poserr.Error
		want string
	}{
		{poserr.Error{File: "a.yaml", Line: 2, Col: 3, Msg: "m"}, "a.yaml:2:3: m"},
		{poserr.Error{File: "a.yaml", Line: 2, Msg: "m"}, "a.yaml:2: m"},
		{poserr.Error{File: "a.yaml", Msg: "m"}, "a.yaml: m"},
		{poserr.Error{File: "a.yaml", Col: 3, Msg: "m"}, "a.yaml: m"},
		{poserr.Error{Line: 2, Col: 3, Msg: "m"}, "2:3: m"},
		{poserr.Error{Msg: "m"}, "m"},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.e, got, tt.want)
		}
	}
}

func TestKind(t *testing.T) {
	other := errors.New("other")
	err := fmt.Errorf("wrapped: %w", poserr.New(errBad, "f", 1, 2, "m"))
	if !errors.Is(err, errBad) || errors.Is(err, other) {
		t.Errorf("errors.Is does not follow the Kind: %v", err)
	}
	if errors.Is(&poserr.Error{Msg: "m"}, errBad) {
		t.Error("an error without a Kind matches a sentinel")
	}
	if e, ok := poserr.As(err, errBad); !ok || e.Line != 1 || e.Col != 2 {
		t.Errorf("As(errBad) = %v, %t", e, ok)
	}
	if _, ok := poserr.As(err, other); ok {
		t.Error("As matched an error of another kind")
	}
	if e, ok := poserr.As(err, nil); !ok || e.File != "f" {
		t.Errorf("As(nil) = %v, %t", e, ok)
	}
	if _, ok := poserr.As(errors.New("x"), nil); ok {
		t.Error("As matched a plain error")
	}
}
