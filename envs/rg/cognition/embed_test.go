package cognition

import "embed"

//go:embed testdata/figlet.golden
var testdataFS embed.FS
