import importlib.util
spec = importlib.util.spec_from_file_location("calc", "/app/calc/calc.py")
calc = importlib.util.module_from_spec(spec); spec.loader.exec_module(calc)
assert calc.mean([2, 4, 6, 8]) == 5
assert calc.clamp(-3, 0, 5) == 0
