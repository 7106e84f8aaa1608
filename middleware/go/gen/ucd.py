# Combining classes and two-code-point canonical decompositions, as JSON, for gen/unicode-tables.mjs.
import json, sys, unicodedata
ccc, pairs = {}, []
for cp in range(0x110000):
    c = chr(cp)
    if unicodedata.combining(c):
        ccc[cp] = unicodedata.combining(c)
    d = unicodedata.decomposition(c)
    if d and not d.startswith('<') and len(d.split()) == 2:
        pairs.append([int(x, 16) for x in d.split()] + [cp])
json.dump({'ccc': ccc, 'pairs': pairs}, sys.stdout)
