"""A tiny offline embedding for the store's semantic index (tests): counts of the first 16
letters, normalised, so texts that share letters rank together. No network, no model."""


async def aembed_texts(texts: list[str]) -> list[list[float]]:
    out = []
    for text in texts:
        low = text.lower()
        vec = [float(low.count(ch)) for ch in "abcdefghijklmnop"]
        norm = sum(v * v for v in vec) ** 0.5 or 1.0
        out.append([v / norm for v in vec])
    return out
