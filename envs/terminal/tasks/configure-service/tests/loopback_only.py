import configparser
c = configparser.ConfigParser(); c.read("/app/service.ini")
assert c["server"]["host"].strip() == "127.0.0.1"
