cd /app/project
[ "$(git log --format=%s)" = "initial commit" ]
[ "$(git ls-files | sort | tr '\n' ' ')" = "LICENSE README.md src/main.py " ]
[ -z "$(git status --porcelain)" ]
