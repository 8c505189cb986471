package arc

// rearcGens11 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens11 = []rearcEntry{}
