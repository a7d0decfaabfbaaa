// autocannon 9 ships no types; the bench uses its documented options, 'response' event and result fields.
declare module 'autocannon';
