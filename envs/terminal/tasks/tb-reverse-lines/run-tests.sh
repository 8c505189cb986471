#!/bin/bash
# Terminal-Bench runs this in its image; Quarry runs tests/test_outputs.py with pytest itself.
pytest $TEST_DIR/test_outputs.py -rA
