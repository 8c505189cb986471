"""Builds the golden instructions for a tools/list result the way GEM does.

GEM's MCPTool.instruction_string (gem/tools/mcp_tool.py, axon-rl/gem@4069f2f)
sorts the tools by name and prints each as json.dumps of a function
definition under a fixed header. This script does the same from a raw
JSON-RPC tools/list response on stdin, with Python's own json module, so the
golden file is an independent check of the Go rendering:

    python3 gem_instructions.py < tools_list.json > everything_instructions.golden
"""
import json
import sys

HEAD = (
    "# Tool-Use Instructions\n\n"
    "In this environment you have access to a set of tools you can use to answer the user's question.\n\n"
    "You only have access to the tools provided below. You can only use one tool per message, and will receive the result of that tool in the user's next response. You use tools step-by-step to accomplish a given task, with each tool-use informed by the result of the previous tool-use.\n\n"
    "Tool-use is formatted using XML-style tags. The tool-use is enclosed in <tool_call></tool_call> and each parameter is similarly enclosed within its own set of tags.\n\n"
    "## Parameters\n"
    "- tool_name: (required) The name of the tool to execute\n"
    "- arguments: (required) A JSON object containing the tool's input parameters, following the tool's input schema. Quotes within strings must be properly escaped. Ensure the JSON is valid.\n\n"
    "## Usage Example\n"
    "<tool_call>\n"
    "<tool_name>tool_name_here</tool_name>\n"
    "<arguments>\n"
    "{\n"
    '  "param1": "value1",\n'
    '  "param2": "value2 \\"escaped string\\""\n'
    "}\n"
    "</arguments>\n"
    "</tool_call>\n\n"
    "## Available Tools\n"
    "Here are the functions available within <tools></tools> XML tags:\n\n"
)

msg = json.load(sys.stdin)
tools = msg["result"]["tools"] if "result" in msg else msg["tools"]
defs = []
for tool in sorted(tools, key=lambda t: t.get("name", "")):
    defs.append(json.dumps({
        "type": "function",
        "function": {
            "name": tool["name"],
            "description": tool.get("description") or "",
            "parameters": tool.get("inputSchema") or {"type": "object", "properties": {}},
        },
    }))
sys.stdout.write(HEAD + "<tools>\n" + "\n".join(defs) + "\n</tools>")
