package arc

// rearcGens10 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens10 = []rearcEntry{}
