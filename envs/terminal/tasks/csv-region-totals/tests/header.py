lines = open('/app/totals.csv').read().split()
assert lines[0] == 'region,total', lines[0]
