package arc

// rearcGens14 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens14 = []rearcEntry{}
