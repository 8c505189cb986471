package arc

// rearcGens12 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens12 = []rearcEntry{}
