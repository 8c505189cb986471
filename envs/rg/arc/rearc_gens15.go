package arc

// rearcGens15 are a batch of ported generators.
var rearcGens15 = []rearcEntry{}
