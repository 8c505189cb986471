printf 'apple\navocado\nbanana\ncherry\n' | diff - /app/repo/list.txt
