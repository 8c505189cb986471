module github.com/quarry-rl/quarry

go 1.26.8

require github.com/agnivade/levenshtein v1.2.2
