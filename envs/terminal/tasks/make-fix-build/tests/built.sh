printf 'alpha\nbeta\n' | diff - /app/build/out/report.txt
