package arc

// rearcGens14 are a batch of ported generators.
var rearcGens14 = []rearcEntry{}
