cd /app/repo
[ "$(git log --format=%s | wc -l)" -eq 4 ]
git log --format=%s | grep -qx 'break config'
[ -f README.md ] && [ -z "$(git status --porcelain)" ]
