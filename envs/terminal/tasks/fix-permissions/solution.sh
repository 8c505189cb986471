#!/bin/bash
chmod a+x /app/bin/*.sh

chmod 600 /app/secret.txt
