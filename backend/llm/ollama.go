package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

type olOptions struct {
	Temperature float64 `json:"temperature"`
	NumPredict  int     `json:"num_predict,omitempty"`
}

type olChatRequest struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	// Stream is never omitted: Ollama streams unless told false.
	Stream  bool      `json:"stream"`
	Format  string    `json:"format,omitempty"`
	Options olOptions `json:"options"`
}

type olChatResponse struct {
	Model   string `json:"model"`
	Message struct {
		Content string `json:"content"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int    `json:"prompt_eval_count"`
	EvalCount       int    `json:"eval_count"`
	Error           string `json:"error"`
}

const olChatPath = "/api/chat"

func (c *httpClient) ollamaChat(ctx context.Context, req ChatRequest, temp float64, onDelta func(string)) (ChatResponse, error) {
	body := olChatRequest{
		Model:    c.cfg.ChatModel,
		Messages: req.Messages,
		Stream:   onDelta != nil,
		Options:  olOptions{Temperature: temp, NumPredict: req.MaxTokens},
	}
	if req.JSON {
		body.Format = "json"
	}
	resp, err := c.t.do(ctx, http.MethodPost, olChatPath, body, c.cfg.ChatModel)
	if err != nil {
		return ChatResponse{}, err
	}
	defer resp.Close()
	base := c.cfg.BaseURL
	if !body.Stream {
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			return ChatResponse{}, readError(ctx, base, err)
		}
		var r olChatResponse
		if err := json.Unmarshal(raw, &r); err != nil {
			return ChatResponse{}, badResponse(base, "a chat response that is not valid JSON", err)
		}
		if r.Error != "" {
			return ChatResponse{}, badResponse(base, "an error instead of an answer: "+truncate(r.Error, 200), nil)
		}
		return ChatResponse{Content: r.Message.Content, Model: r.Model, PromptTokens: r.PromptEvalCount,
			CompletionTokens: r.EvalCount, Truncated: r.DoneReason == "length"}, nil
	}
	// NDJSON: one object per line; the last has done:true and the counts.
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	var out ChatResponse
	var content strings.Builder
	for {
		line, rerr := br.ReadBytes('\n')
		if rerr != nil && rerr != io.EOF {
			return ChatResponse{}, readError(ctx, base, rerr)
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			var r olChatResponse
			if err := json.Unmarshal(line, &r); err != nil {
				return ChatResponse{}, badResponse(base, "a stream line that is not valid JSON", err)
			}
			if r.Error != "" {
				return ChatResponse{}, badResponse(base, "an error in the middle of the answer: "+truncate(r.Error, 200), nil)
			}
			if r.Model != "" {
				out.Model = r.Model
			}
			if r.Message.Content != "" {
				content.WriteString(r.Message.Content)
				onDelta(r.Message.Content)
			}
			if r.Done {
				out.Content = content.String()
				out.PromptTokens, out.CompletionTokens = r.PromptEvalCount, r.EvalCount
				out.Truncated = r.DoneReason == "length"
				return out, nil
			}
		}
		if rerr == io.EOF {
			return ChatResponse{}, badResponse(base, "a stream that ended before the answer was finished", io.ErrUnexpectedEOF)
		}
		if rerr != nil {
			return ChatResponse{}, readError(ctx, base, rerr)
		}
	}
}
