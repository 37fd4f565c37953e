package draw

import "strings"

// ShowHome writes the directory home as ~ wherever it appears in text: a
// lab served to a class keeps each student's files under the server's
// state directory, and where that is on the server is none of the
// student's business (nor of anyone reading over their shoulder). An
// empty home leaves text as it is.
func ShowHome(home, text string) string {
	if home == "" || !strings.Contains(text, home) {
		return text
	}
	return strings.ReplaceAll(text, home, "~")
}
