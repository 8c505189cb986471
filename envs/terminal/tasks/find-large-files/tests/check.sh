printf 'a/b/just-over.bin\nbig.bin\nc/huge.log\n' | diff - /app/large.txt
