"""A fake OpenAI-compatible server on 127.0.0.1 that replays scripted answers to /v1/chat/completions and records
every request it received. Streams are real SSE over chunked HTTP, so a dropped stream is a real broken body.
A request for a conversation's title is answered from its own queue (`titles`)."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tui.runtime.chat.titles import TITLE_PROMPT


def text(*parts: str, finish: str = "stop", usage: dict[str, int] | None = None) -> dict[str, Any]:
    """A streamed plain answer, one chunk per part."""
    return {"chunks": [{"content": p} for p in parts], "finish": finish, "usage": usage}


def call(name: str, arguments: str = "{}", id: Any = "call_1", index: int = 0) -> dict[str, Any]:
    """One delta holding a whole tool call."""
    return {
        "tool_calls": [
            {"index": index, "id": id, "type": "function", "function": {"name": name, "arguments": arguments}}
        ]
    }


def calls(*deltas: dict[str, Any], finish: str = "tool_calls", **extra: Any) -> dict[str, Any]:
    return {"chunks": list(deltas), "finish": finish, **extra}


def is_title_request(body: dict[str, Any]) -> bool:
    """The app asks for a conversation's title (titles.py), not for the next turn."""
    messages = body.get("messages") or [{}]
    return messages[0].get("role") == "system" and messages[0].get("content") == TITLE_PROMPT


def content_problem(messages: list[dict[str, Any]]) -> str | None:
    """What llama-cpp-python's server refuses in a request (HTTP 500): a message whose content is not a string
    (OpenAI allows null beside tool calls; the app stores it so, and sends "")."""
    for i, m in enumerate(messages):
        if not isinstance(m.get("content"), (str, list)):
            return f"messages.{i}.content: Input should be a valid string"
    return None


def history_problem(messages: list[dict[str, Any]]) -> str | None:
    """What a real server (OpenAI, DeepSeek) refuses in a history: a tool call without its tool message right
    after the assistant message, or a tool message that answers no call. None when the history is well-formed."""
    pending: list[str] = []
    for m in messages:
        if m.get("role") == "tool":
            if m.get("tool_call_id") not in pending:
                answered = m.get("tool_call_id")
                return f"Messages with role 'tool' must be a response to a preceding 'tool_calls' ({answered})"
            pending.remove(m["tool_call_id"])
            continue
        if pending:
            break
        if m.get("role") == "assistant":
            pending = [c.get("id") for c in m.get("tool_calls") or []]
    if pending:
        missing = ", ".join(map(str, pending))
        return (
            "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
            f"'tool_call_id'. The following tool_call_ids did not have response messages: {missing}"
        )
    return None


class _Server(ThreadingHTTPServer):
    """A client that went away mid-answer (an app closed while its title request streamed, a stopped turn) is
    what real servers see too: not a traceback in the test log."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class FakeOpenAI:
    """Answers in order; `requests` holds each request body received. Like a real server it answers 400 to a
    history with an unanswered tool call (`strict`), without using up a scripted answer."""

    def __init__(self, *answers: dict[str, Any], strict: bool = True) -> None:
        self.answers = list(answers)
        self.requests: list[dict[str, Any]] = []
        self.sizes: list[int] = []
        """Each request's size in bytes."""
        self.keep = True
        """Keep each request's body and headers (`requests`, `headers`; a benchmark of memory turns it off)."""
        self.headers: list[dict[str, str]] = []
        self.strict = strict
        self.refused: list[str] = []
        """Why requests were answered 400 (a malformed history)."""
        self.titles: list[dict[str, Any]] = []
        """Answers to the requests for a conversation's title (titles.py); an empty answer when none is left
        (the title stays the first question). Those requests are kept in `title_requests`, not `requests`."""
        self.title_requests: list[dict[str, Any]] = []

    def add(self, *answers: dict[str, Any]) -> None:
        self.answers.extend(answers)

    @contextmanager
    def serve(self) -> Iterator[str]:
        """Run on a free port; yields the base URL (`http://127.0.0.1:PORT/v1`)."""
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.sizes.append(length)
                titling = is_title_request(body)
                if fake.keep and not titling:
                    fake.requests.append(body)
                if fake.keep:
                    fake.headers.append({k.lower(): v for k, v in self.headers.items()})
                sent = body.get("messages") or []
                problem = (history_problem(sent) or content_problem(sent)) if fake.strict else None
                if titling:  # answered from its own queue: scripted turns stay in order
                    fake.title_requests.append(body)
                    answer = fake.titles.pop(0) if fake.titles else text("")
                elif problem is not None:
                    fake.refused.append(problem)
                    answer: dict[str, Any] = {"status": 400, "body": {"error": {"message": problem}}}
                else:
                    answer = fake.answers.pop(0) if fake.answers else text("(no more scripted answers)")
                if answer.get("delay"):
                    time.sleep(answer["delay"])  # a slow server (Esc must not wait for it)
                if "status" in answer:
                    payload = json.dumps(answer.get("body", {"error": {"message": "scripted error"}})).encode()
                    self.send_response(answer["status"])
                    for k, v in answer.get("headers", {}).items():
                        self.send_header(k, v)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                if not body.get("stream"):
                    self._whole(answer)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunks = answer["chunks"]
                drop = answer.get("drop_after")
                if answer.get("first_delay"):
                    time.sleep(answer["first_delay"])  # the headers came; the first token is slow (a model thinking)
                for i, delta in enumerate(chunks):
                    if drop is not None and i == drop:
                        self.wfile.flush()
                        self.connection.shutdown(2)  # the body ends mid-chunk-stream: a real broken stream
                        return
                    last = i == len(chunks) - 1
                    self._event({"index": 0, "delta": delta, "finish_reason": answer["finish"] if last else None})
                if answer.get("last_delay"):
                    time.sleep(answer["last_delay"])  # the text is all there; the end of the stream is late
                if answer.get("usage"):
                    self._send({"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
                                "choices": [], "usage": answer["usage"]})  # fmt: skip
                if answer.get("done", True):
                    self._chunk(b"data: [DONE]\n\n")
                self._chunk(b"")

            def _event(self, choice: dict[str, Any]) -> None:
                self._send(
                    {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m", "choices": [choice]}
                )

            def _send(self, obj: dict[str, Any]) -> None:
                self._chunk(b"data: " + json.dumps(obj, ensure_ascii=False).encode() + b"\n\n")

            def _chunk(self, data: bytes) -> None:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()

            def _whole(self, answer: dict[str, Any]) -> None:
                message: dict[str, Any] = {"role": "assistant", "content": None}
                tool_calls = []
                for delta in answer["chunks"]:
                    if delta.get("content"):
                        message["content"] = (message["content"] or "") + delta["content"]
                    tool_calls += delta.get("tool_calls") or []
                if tool_calls:
                    message["tool_calls"] = [{k: v for k, v in c.items() if k != "index"} for c in tool_calls]
                payload = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                                      "choices": [{"index": 0, "message": message, "finish_reason": answer["finish"]}],
                                      "usage": answer.get("usage")}).encode()  # fmt: skip
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                pass

        server = _Server(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/v1"
        finally:
            server.shutdown()
            server.server_close()
