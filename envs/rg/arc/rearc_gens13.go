package arc

// rearcGens13 are a batch of ported generators.
var rearcGens13 = []rearcEntry{}
