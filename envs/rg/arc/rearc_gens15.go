package arc

// rearcGens15 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens15 = []rearcEntry{}
