const DATA = Buffer.from('"data":"');
const QUOTE = 0x22;

/**
 * The message index of a frame whose messages are MLS ciphertexts, the same bytes for every
 * recipient (`{payload: [{type: 'conversation.mls-message-add', data: <base64>}]}`): a message is
 * known by its data, the frame's only `"data":"…"` field, found in the bytes rather than by
 * parsing the JSON, so that the load client is not the limit. `data[i]` is message `i`'s base64.
 */
export function mlsFrameIndex(data: readonly string[]): (frame: Buffer) => number | undefined {
  const index = new Map(data.map((d, i) => [d, i]));
  return (frame) => {
    const at = frame.indexOf(DATA);
    const end = at < 0 ? -1 : frame.indexOf(QUOTE, at + DATA.length);
    return end < 0 ? undefined : index.get(frame.toString('latin1', at + DATA.length, end));
  };
}
