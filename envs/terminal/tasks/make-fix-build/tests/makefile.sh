cd /app/build && make -q out/report.txt && make -n clean | grep -q 'rm -rf out'
