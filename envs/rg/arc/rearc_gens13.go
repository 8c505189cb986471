package arc

// rearcGens13 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens13 = []rearcEntry{}
