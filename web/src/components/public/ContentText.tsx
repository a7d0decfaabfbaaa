import { Box, Heading, List, Text } from '@chakra-ui/react';

type Block = { kind: 'heading'; text: string } | { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

/**
 * Splits the content pages' plain-text markup into blocks: a blank line separates paragraphs, `## ` starts a
 * heading and `- ` a list item. Rendering through React (never as HTML) keeps admin-typed text inert.
 */
export function parseContent(text: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of text.replace(/\r\n/g, '\n').split(/\n{2,}/)) {
    const lines = chunk.split('\n').map((l) => l.trim()).filter(Boolean);
    let paragraph: string[] = [];
    let list: string[] = [];
    const flush = () => {
      if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
      if (list.length) blocks.push({ kind: 'list', items: list });
      paragraph = [];
      list = [];
    };
    for (const line of lines) {
      if (line.startsWith('## ')) {
        flush();
        blocks.push({ kind: 'heading', text: line.slice(3).trim() });
      } else if (line.startsWith('- ')) {
        if (paragraph.length) flush();
        list.push(line.slice(2).trim());
      } else {
        if (list.length) flush();
        paragraph.push(line);
      }
    }
    flush();
  }
  return blocks;
}

/** Shows content-page text; headings are h2 under the page's h1 (or `headingLevel`). */
export function ContentText({ text, headingLevel = 'h2' }: { text: string; headingLevel?: 'h2' | 'h3' }) {
  return (
    <Box data-testid="content-text" css={{ '& > * + *': { marginTop: '4' } }} maxW="4xl">
      {parseContent(text).map((b, i) => {
        if (b.kind === 'heading')
          return (
            <Heading key={i} as={headingLevel} size="lg" color="brand.fg" pt="2">
              {b.text}
            </Heading>
          );
        if (b.kind === 'list')
          return (
            <List.Root key={i} ps="5" gap="1">
              {b.items.map((item, k) => (
                <List.Item key={k}>{item}</List.Item>
              ))}
            </List.Root>
          );
        return (
          <Text key={i} lineHeight="tall" fontSize="md">
            {b.text}
          </Text>
        );
      })}
    </Box>
  );
}
