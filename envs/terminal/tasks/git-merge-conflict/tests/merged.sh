cd /app/repo
[ "$(git rev-parse --abbrev-ref HEAD)" = main ]
[ "$(git log -1 --format=%P | wc -w)" -eq 2 ]
git merge-base --is-ancestor feature HEAD
[ -z "$(git status --porcelain)" ]
