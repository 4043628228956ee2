import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// Conversations: questions asked one after another, follow-ups keeping the previous scope.

type ConversationChannels = "conversations.create" | "conversations.list" | "conversations.get" | "conversations.delete";

export function conversationHandlers({ engine }: HandlerContext): FeatureHandlers<ConversationChannels> {
  return {
    "conversations.create": () => engine.createConversation(),
    "conversations.list": (params) => engine.listConversations(params.query === undefined ? {} : { query: params.query }),
    "conversations.get": (params) => engine.getConversation(params.id),
    "conversations.delete": (params) => engine.deleteConversation(params.id),
  };
}
