import { useState } from 'react';
import { Badge, Box, Button, HStack, List, Spinner, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { ChevronEndIcon } from '../icons';
import { useLocalized } from './localized';
import type { HsTreeNode } from './public-api';

function HalalMark({ node }: { node: HsTreeNode }) {
  const { t } = useTranslation('public');
  if (node.halal) return <Badge colorPalette="green">{t('hs.eligible')}</Badge>;
  if (node.containsHalal) return <Badge colorPalette="yellow">{t('hs.partlyEligible')}</Badge>;
  return null;
}

/** One node: a disclosure button that loads its children the first time it opens. */
function TreeNode({ node }: { node: HsTreeNode }) {
  const { t, i18n } = useTranslation('public');
  const l = useLocalized();
  const [open, setOpen] = useState(false);
  const [children, setChildren] = useState<HsTreeNode[] | null>(null);
  const [loading, setLoading] = useState(false);
  const label = node.level === 0 ? t('hs.section', { code: node.code }) : node.code;
  const name = l(node.nameAr ?? node.nameEn, node.nameEn);
  // Below chapter level only English text exists: mark it so screen readers pronounce it right.
  const nameLang = i18n.language === 'ar' && !node.nameAr ? 'en' : undefined;

  const toggle = async () => {
    if (!open && children === null) {
      setLoading(true);
      try {
        const res = await data(api.GET('/api/public/hs-codes/tree', { params: { query: { parent: node.code } } }));
        setChildren(res.items);
      } finally {
        setLoading(false);
      }
    }
    setOpen((o) => !o);
  };

  const content = (
    <HStack align="start" gap="2" flexWrap="wrap" textAlign="start">
      <Text as="span" fontFamily="mono" fontWeight="semibold" dir="ltr" minW="16">
        {label}
      </Text>
      <Text as="span" flex="1" minW="40" lang={nameLang}>
        {name}
      </Text>
      <HalalMark node={node} />
    </HStack>
  );

  return (
    <List.Item listStyleType="none" data-testid="hs-tree-node" data-code={node.code}>
      {node.childCount > 0 ? (
        <Button
          variant="ghost"
          size="sm"
          h="auto"
          py="2"
          w="full"
          justifyContent="flex-start"
          whiteSpace="normal"
          fontWeight="normal"
          aria-expanded={open}
          aria-label={`${open ? t('hs.collapse', { code: label }) : t('hs.expand', { code: label })}: ${name}`}
          onClick={() => void toggle()}
        >
          <ChevronEndIcon className="flip-rtl" transform={open ? 'rotate(90deg)' : undefined} transition="transform 0.15s" flexShrink={0} mt="1" />
          {content}
        </Button>
      ) : (
        <Box ps="8" py="2" fontSize="sm">
          {content}
        </Box>
      )}
      {loading && <Spinner size="sm" ms="8" />}
      {open && children && (
        <List.Root ps={{ base: '3', md: '6' }} borderStartWidth="1px" ms="3">
          {children.map((c) => (
            <TreeNode key={c.code} node={c} />
          ))}
        </List.Root>
      )}
    </List.Item>
  );
}

/** The HS nomenclature as a tree: sections, chapters, headings, sub-headings, each marked when Halal-eligible. */
export function HsTree({ sections }: { sections: HsTreeNode[] }) {
  const { t } = useTranslation('public');
  return (
    <Box bg="bg" borderWidth="1px" borderRadius="md" p="3" data-testid="hs-tree">
      <List.Root aria-label={t('hs.treeTitle')}>
        {sections.map((s) => (
          <TreeNode key={s.code} node={s} />
        ))}
      </List.Root>
    </Box>
  );
}
