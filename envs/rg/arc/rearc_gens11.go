package arc

// rearcGens11 are a batch of ported generators.
var rearcGens11 = []rearcEntry{}
