package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

type oaFormat struct {
	Type string `json:"type"`
}

type oaStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type oaChatRequest struct {
	Model          string           `json:"model"`
	Messages       []Message        `json:"messages"`
	Temperature    float64          `json:"temperature"`
	MaxTokens      int              `json:"max_tokens,omitempty"`
	Stream         bool             `json:"stream"`
	StreamOptions  *oaStreamOptions `json:"stream_options,omitempty"`
	ResponseFormat *oaFormat        `json:"response_format,omitempty"`
}

type oaUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

type oaChatResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
		} `json:"message"`
		Delta struct {
			Content *string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *oaUsage        `json:"usage"`
	Error json.RawMessage `json:"error"`
}

const oaChatPath = "/v1/chat/completions"

func (c *httpClient) openAIChat(ctx context.Context, req ChatRequest, temp float64, onDelta func(string)) (ChatResponse, error) {
	body := oaChatRequest{
		Model:       c.cfg.ChatModel,
		Messages:    req.Messages,
		Temperature: temp,
		MaxTokens:   req.MaxTokens,
		Stream:      onDelta != nil,
	}
	if body.Stream {
		body.StreamOptions = &oaStreamOptions{IncludeUsage: true}
	}
	if req.JSON && !c.noJSONMode.Load() {
		body.ResponseFormat = &oaFormat{Type: "json_object"}
	}
	resp, err := c.t.do(ctx, http.MethodPost, oaChatPath, body, c.cfg.ChatModel)
	if err != nil && body.ResponseFormat != nil && rejectsJSONMode(err) {
		// LM Studio and some llama.cpp builds accept only json_schema or
		// text; remember it and ask again without the flag.
		c.noJSONMode.Store(true)
		body.ResponseFormat = nil
		resp, err = c.t.do(ctx, http.MethodPost, oaChatPath, body, c.cfg.ChatModel)
	}
	if err != nil {
		return ChatResponse{}, err
	}
	defer resp.Close()
	// Some servers ignore "stream": true and send one JSON body; accept it
	// and deliver its content as a single delta.
	if !body.Stream || strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			return ChatResponse{}, readError(ctx, c.cfg.BaseURL, err)
		}
		out, err := parseOAFull(c.cfg.BaseURL, raw)
		if err == nil && onDelta != nil && out.Content != "" {
			onDelta(out.Content)
		}
		return out, err
	}
	return readSSE(ctx, c.cfg.BaseURL, resp.Body, onDelta)
}

func parseOAFull(base string, raw []byte) (ChatResponse, error) {
	var r oaChatResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return ChatResponse{}, badResponse(base, "a chat response that is not valid JSON", err)
	}
	if len(r.Error) > 0 && string(r.Error) != "null" {
		return ChatResponse{}, badResponse(base, "an error instead of an answer: "+serverMessage(raw), nil)
	}
	if len(r.Choices) == 0 {
		return ChatResponse{}, badResponse(base, "a chat response without choices", nil)
	}
	out := ChatResponse{Model: r.Model}
	if p := r.Choices[0].Message.Content; p != nil {
		out.Content = *p
	}
	if f := r.Choices[0].FinishReason; f != nil && *f == "length" {
		out.Truncated = true
	}
	if r.Usage != nil {
		out.PromptTokens, out.CompletionTokens = r.Usage.PromptTokens, r.Usage.CompletionTokens
	}
	return out, nil
}

func rejectsJSONMode(err error) bool {
	var e *papertree.Error
	if !errors.As(err, &e) || e.Code != papertree.ELLM {
		return false
	}
	m := strings.ToLower(e.Message)
	return strings.Contains(m, "(http 400)") && (strings.Contains(m, "response_format") || strings.Contains(m, "json_object"))
}

// readSSE reads an OpenAI-style event stream: "data: {json}" lines, blank
// line separators, ":" comments, terminated by "data: [DONE]". Lines are
// assembled from the byte stream first, so chunks split anywhere (inside a
// UTF-8 sequence or a JSON object) are handled.
func readSSE(ctx context.Context, base string, body io.Reader, onDelta func(string)) (ChatResponse, error) {
	br := bufio.NewReaderSize(body, 64<<10)
	var out ChatResponse
	var content strings.Builder
	finished := false
	for {
		line, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			// A line cut by a read error (the cap, a dropped connection)
			// is incomplete: the error is the news, not its JSON.
			return ChatResponse{}, readError(ctx, base, err)
		}
		if len(line) > 0 {
			line = bytes.TrimRight(line, "\r\n")
			data, ok := bytes.CutPrefix(line, []byte("data:"))
			if ok {
				data = bytes.TrimSpace(data)
				if string(data) == "[DONE]" {
					out.Content = content.String()
					return out, nil
				}
				if len(data) > 0 {
					var r oaChatResponse
					if jerr := json.Unmarshal(data, &r); jerr != nil {
						return ChatResponse{}, badResponse(base, "a stream event that is not valid JSON", jerr)
					}
					if len(r.Error) > 0 && string(r.Error) != "null" {
						return ChatResponse{}, badResponse(base, "an error in the middle of the answer: "+serverMessage(data), nil)
					}
					if r.Model != "" {
						out.Model = r.Model
					}
					if r.Usage != nil {
						out.PromptTokens, out.CompletionTokens = r.Usage.PromptTokens, r.Usage.CompletionTokens
					}
					for _, ch := range r.Choices[:min(len(r.Choices), 1)] {
						if p := ch.Delta.Content; p != nil && *p != "" {
							content.WriteString(*p)
							onDelta(*p)
						}
						if f := ch.FinishReason; f != nil && *f != "" {
							finished = true
							out.Truncated = *f == "length"
						}
					}
				}
			}
		}
		if err == io.EOF {
			if !finished {
				return ChatResponse{}, badResponse(base, "a stream that ended before the answer was finished", io.ErrUnexpectedEOF)
			}
			out.Content = content.String()
			return out, nil
		}
		if err != nil {
			return ChatResponse{}, readError(ctx, base, err)
		}
	}
}

func readError(ctx context.Context, base string, err error) *papertree.Error {
	var big replyTooLarge
	if errors.As(err, &big) {
		return papertree.Wrap(err, papertree.ELLM, "the LLM server at "+base+" sent a reply longer than the "+sizeWords(big.limit)+" limit")
	}
	if ctx.Err() != nil {
		return ctxError(ctx, base)
	}
	e, _ := netError(err, base)
	return e
}
