cd /app/photos
[ -z "$(ls | grep '\.jpeg$')" ]
for f in beach sunset 'family trip' cat; do [ "$(cat "$f.jpg")" = "$f" ]; done
