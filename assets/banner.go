package assets

import _ "embed"

// Banner is the terminal lab's title art (banner.txt), shown on the home
// screen. It is plain ASCII so that every terminal and font draws it.
//
//go:embed banner.txt
var Banner string
