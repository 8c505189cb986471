#!/bin/bash
tar -C /app -czf /app/backup.tar.gz --exclude='*.tmp' data
