package arc

// rearcGens12 are a batch of ported generators.
var rearcGens12 = []rearcEntry{}
