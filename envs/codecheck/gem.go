package codecheck

import "strings"

// baseImports is prepended to a program whose run failed with "is not
// defined" (GEM's BASE_IMPORTS in gem/utils/constants.py: the same modules
// and names, in GEM's order). GEM's environment always has numpy and pandas;
// here their imports may fail quietly, so a program that needs neither is
// not failed by their absence.
const baseImports = `from itertools import accumulate, chain, combinations, count, permutations, product, groupby, islice, repeat
from copy import deepcopy
from string import ascii_lowercase, ascii_uppercase
from math import floor, log2, log10, sqrt, comb, gcd, ceil, inf, isqrt, factorial, atan2, pi
from collections import defaultdict, deque, Counter
from bisect import bisect, bisect_left, bisect_right, insort
from heapq import heappush, heappop, heapify, merge, nlargest, nsmallest, heapreplace
from functools import reduce, cache, lru_cache, cmp_to_key, reduce
from random import randrange, shuffle
from operator import itemgetter, sub, xor, or_
from re import search as re_search
from os.path import commonprefix
from typing import List, Tuple, Dict, Set, Optional, Union, Any, Callable, Iterable, Iterator, Generator, Deque
import copy
import string
import math
import collections
import bisect
import heapq
import functools
import random
import itertools
import operator
import re
import datetime
from time import time
try:
    import numpy as np
except ImportError:
    pass
try:
    import pandas as pd
except ImportError:
    pass
from math import log, prod
from collections import deque, defaultdict, Counter, OrderedDict
from itertools import accumulate, permutations, combinations, product, groupby, islice, chain, repeat, zip_longest, cycle, pairwise
from functools import lru_cache, reduce, partial
from operator import iand
import sys
import io, os
`

// forbiddenModules and dangerousCalls are GEM's check_forbidden_imports
// lists (gem/utils/sandbox.py), used only with Options.Blocklist.
var (
	forbiddenModules = []string{"subprocess", "multiprocessing", "threading", "socket", "psutil", "resource", "ctypes"}
	dangerousCalls   = []string{"os.system", "os.popen", "os.spawn", "os.fork", "os.exec", "sys.exit", "os._exit", "os.kill"}
)

// blocked is GEM's check_forbidden_imports: a plain substring test, so
// "from threadingx" or a comment mentioning sys.exit also count.
func blocked(code string) bool {
	for _, m := range forbiddenModules {
		if strings.Contains(code, "import "+m) || strings.Contains(code, "from "+m) {
			return true
		}
	}
	for _, p := range dangerousCalls {
		if strings.Contains(code, p) {
			return true
		}
	}
	return false
}
