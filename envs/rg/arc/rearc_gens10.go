package arc

// rearcGens10 are a batch of ported generators.
var rearcGens10 = []rearcEntry{}
