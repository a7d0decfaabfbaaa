import { useEffect, useId, useRef, useState } from 'react';
import { Box, Button, CloseButton, Flex, Heading, IconButton, Input, Stack, Text, Wrap } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import type { ApiResponse } from '../../api/query';
import { ApiError } from '../../api/errors';
import { dropRecaptchaToken, recaptchaToken, RECAPTCHA_HEADER } from './recaptcha-token';
import { useHideOnScroll } from './use-hide-on-scroll';

/** Spec 01 sections 5 and 9: chat input limit and window size. */
export const CHAT_MAX_CHARS = 70;
const WINDOW_WIDTH = '400px';
const WINDOW_HEIGHT = '700px';

type Welcome = ApiResponse<'/api/public/chat/welcome'>;
type Suggestion = Welcome['suggestions'][number];
interface Message {
  from: 'user' | 'assistant';
  text: string;
}

/** A chat call with the reCAPTCHA header; a refused token is renewed once. No loader, no error screen: the chat shows its own state. */
type ChatOptions = { params: { header: { [RECAPTCHA_HEADER]: string } }; silent: true; handleErrors: false };
async function withRecaptcha<T>(call: (options: ChatOptions) => Promise<T>, retried = false): Promise<T> {
  try {
    return await call({ params: { header: { [RECAPTCHA_HEADER]: await recaptchaToken() } }, silent: true, handleErrors: false });
  } catch (e) {
    if (!retried && e instanceof ApiError && (e.code === 'RecaptchaInvalid' || e.code === 'RecaptchaRequired')) {
      dropRecaptchaToken();
      return withRecaptcha(call, true);
    }
    throw e;
  }
}

const ChatIcon = () => (
  <svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
    <path d="M8 9h8M8 13h5" />
  </svg>
);

/**
 * The live-chat assistant of spec 01 sections 2 and 9: a floating button (hidden after 1 s of scrolling) opening a
 * 400 x 700 window. Questions are limited to 70 characters; the server answers from the FAQ in the UI language.
 * Loading the assistant may fail (no token, server down): that is only logged, and the window still opens. What it
 * covers keeps CHAT_CLEARANCE (./clearance.ts) free.
 */
export function ChatAssistant() {
  const { t, i18n } = useTranslation('public');
  const hidden = useHideOnScroll();
  const [open, setOpen] = useState(false);
  const [messages, setMessages] = useState<Message[]>([]);
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const loadedFor = useRef<string | null>(null);
  const askedRef = useRef(false);
  const logRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const inputId = useId();
  const counterId = useId();

  // Greeting and suggestions, once per language (the answers follow the UI language).
  useEffect(() => {
    if (!open || loadedFor.current === i18n.language) return;
    loadedFor.current = i18n.language;
    askedRef.current = false;
    setMessages([{ from: 'assistant', text: t('chat.greeting') }]);
    setSuggestions([]);
    withRecaptcha((o) => data(api.GET('/api/public/chat/welcome', o)))
      .then((w) => {
        // The visitor may have asked already: replace only the greeting, and keep suggestions of a later answer.
        setMessages((m) => [{ from: 'assistant', text: w.greeting }, ...m.slice(1)]);
        if (!askedRef.current) setSuggestions(w.suggestions);
      })
      .catch((e: unknown) => console.error('chat assistant: loading failed', e));
  }, [open, i18n.language, t]);

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);
  useEffect(() => {
    logRef.current?.scrollTo({ top: logRef.current.scrollHeight });
  }, [messages, busy]);

  const ask = async (text: string) => {
    const message = text.trim().slice(0, CHAT_MAX_CHARS);
    if (!message || busy) return;
    askedRef.current = true;
    setMessages((m) => [...m, { from: 'user', text: message }]);
    setInput('');
    setBusy(true);
    try {
      const reply = await withRecaptcha((o) => data(api.POST('/api/public/chat', { ...o, body: { message } })));
      setMessages((m) => [...m, { from: 'assistant', text: reply.answer }]);
      setSuggestions(reply.suggestions);
    } catch (e) {
      console.error('chat assistant: question failed', e);
      setMessages((m) => [...m, { from: 'assistant', text: t('chat.failed') }]);
    } finally {
      setBusy(false);
    }
  };

  const left = CHAT_MAX_CHARS - input.length;
  return (
    <>
      {!open && (
        <IconButton
          aria-label={t('chat.open')}
          title={t('chat.open')}
          onClick={() => setOpen(true)}
          position="fixed"
          bottom="6"
          insetEnd="6"
          zIndex="overlay"
          size="2xl"
          rounded="full"
          colorPalette="brand"
          boxShadow="lg"
          opacity={hidden ? 0 : 1}
          visibility={hidden ? 'hidden' : 'visible'}
          transition="opacity 0.2s, visibility 0.2s"
          data-testid="chat-button"
          data-hidden={hidden}
        >
          <ChatIcon />
        </IconButton>
      )}
      {open && (
        <Flex
          role="dialog"
          aria-modal="false"
          aria-labelledby={titleId}
          direction="column"
          position="fixed"
          bottom={{ base: '2', md: '6' }}
          insetEnd={{ base: '2', md: '6' }}
          zIndex="overlay"
          w={WINDOW_WIDTH}
          h={WINDOW_HEIGHT}
          maxW="calc(100vw - 1rem)"
          maxH="calc(100vh - 5rem)"
          bg="bg"
          borderWidth="1px"
          borderRadius="xl"
          boxShadow="2xl"
          overflow="hidden"
          data-testid="chat-window"
        >
          <Flex bg="brand.solid" color="white" px="4" py="3" align="center" justify="space-between">
            <Heading as="h2" id={titleId} size="md">
              {t('chat.title')}
            </Heading>
            <CloseButton size="sm" color="white" _hover={{ bg: 'whiteAlpha.200' }} aria-label={t('chat.close')} onClick={() => setOpen(false)} data-testid="chat-close" />
          </Flex>
          <Stack ref={logRef} role="log" aria-live="polite" flex="1" overflowY="auto" p="4" gap="3" data-testid="chat-log">
            {messages.map((m, i) => (
              <Box
                key={i}
                alignSelf={m.from === 'user' ? 'flex-end' : 'flex-start'}
                maxW="85%"
                bg={m.from === 'user' ? 'brand.solid' : 'bg.muted'}
                color={m.from === 'user' ? 'white' : 'fg'}
                px="3"
                py="2"
                borderRadius="lg"
                data-testid={m.from === 'user' ? 'chat-user' : 'chat-answer'}
              >
                <Text srOnly>{m.from === 'user' ? t('chat.you') : t('chat.assistant')}: </Text>
                <Text fontSize="sm" whiteSpace="pre-line">
                  {m.text}
                </Text>
              </Box>
            ))}
            {busy && (
              <Text fontSize="sm" color="fg.muted" data-testid="chat-typing">
                {t('chat.thinking')}
              </Text>
            )}
            {suggestions.length > 0 && !busy && (
              <Box>
                <Text fontSize="xs" color="fg.muted" mb="1">
                  {t('chat.suggestions')}
                </Text>
                <Wrap gap="2">
                  {suggestions.map((s) => (
                    <Button key={s.id} size="xs" variant="outline" colorPalette="brand" whiteSpace="normal" h="auto" py="1" textAlign="start" onClick={() => void ask(s.question)}>
                      {s.question}
                    </Button>
                  ))}
                </Wrap>
              </Box>
            )}
          </Stack>
          <Box as="form" borderTopWidth="1px" p="3" onSubmit={(e: React.FormEvent) => {
            e.preventDefault();
            void ask(input);
          }}>
            <label htmlFor={inputId}>
              <Text srOnly>{t('chat.inputLabel')}</Text>
            </label>
            <Flex gap="2">
              <Input
                ref={inputRef}
                id={inputId}
                value={input}
                maxLength={CHAT_MAX_CHARS}
                onChange={(e) => setInput(e.target.value.slice(0, CHAT_MAX_CHARS))}
                placeholder={t('chat.placeholder')}
                aria-describedby={counterId}
                autoComplete="off"
                data-testid="chat-input"
              />
              <Button type="submit" colorPalette="brand" disabled={!input.trim() || busy} data-testid="chat-send">
                {t('chat.send')}
              </Button>
            </Flex>
            <Text id={counterId} fontSize="xs" color="fg.muted" mt="1" data-testid="chat-counter">
              {t('chat.charsLeft', { count: left })}
            </Text>
          </Box>
        </Flex>
      )}
    </>
  );
}
